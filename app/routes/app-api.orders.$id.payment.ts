import { appApiRoute } from "~/platform/app-api/wrapper.server";
import { parseWith, readJson } from "~/platform/core/http.server";
import { getOrderRow } from "~/platform/catalog/queries.server";
import { reportPayment } from "~/platform/orders/payments.server";
import { PaymentReport } from "~/platform/app-api/schemas";

export const { loader, action } = appApiRoute({
  POST: {
    scope: "write_payments",
    handler: async ({ request, context, caller, params }) => {
      await getOrderRow(context.db, caller.business.id, params.id!);
      const input = parseWith(PaymentReport, await readJson(request));
      return reportPayment(context.db, caller.business.id, caller.installation.id, params.id!, input);
    },
  },
});
