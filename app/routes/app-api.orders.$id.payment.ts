import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { oneBy } from "~/platform/core/operations.server";
import { getOrderRow } from "~/platform/catalog/queries.server";
import { reportPayment } from "~/platform/orders/payments.server";
import { Order, PaymentReport } from "~/platform/shapes/api";

export const { loader, action, declared } = appApiRoute("/app-api/orders/{id}/payment", {
  POST: operation({
    summary: "Report the outcome of a payment the app created",
    scope: "write_payments",
    ...oneBy("id", "Order id", Order, { errors: [400, 404, 409] }),
    body: PaymentReport,
    handler: async ({ context, caller, params, body }) => {
      await getOrderRow(context.db, caller.business.id, params.id);
      return reportPayment(context.db, caller.business.id, caller.installation.id, params.id, body);
    },
  }),
});
