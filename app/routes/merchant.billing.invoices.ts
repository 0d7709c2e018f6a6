import { listed, operation, merchant, platformRoute } from "~/platform/platform-api/wrapper.server";
import { paged } from "~/platform/core/operations.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { listInvoices, serializeInvoice } from "~/platform/billing/earnings.server";
import { BillingInvoiceList } from "~/platform/billing/schemas";

export const { loader, action, declared } = platformRoute("/merchant/billing/invoices", merchant("billing"), {
  GET: operation({
    summary: "The business's monthly invoices, newest first, with their lines (every amount summed from the ledger)",
    ...paged(BillingInvoiceList, { limit: 12, max: 100 }),
    handler: listed(
      ({ context, user, page }) => listInvoices(context.db, requireBusiness(user).id, page),
      (row) => serializeInvoice(row),
    ),
  }),
});
