import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { oneBy } from "~/platform/core/operations.server";
import { getOrderRow } from "~/platform/catalog/queries.server";
import { moveOrderStatus } from "~/platform/orders/status.server";
import { Order, StatusChange } from "~/platform/shapes/api";

export const { loader, action, declared } = appApiRoute("/app-api/orders/{id}/status", {
  PATCH: operation({
    summary: "Move an order to another status (allowed moves only)",
    scope: "write_orders",
    ...oneBy("id", "Order id", Order, { errors: [400, 404, 409] }),
    body: StatusChange,
    handler: async ({ context, caller, params, body }) => {
      await getOrderRow(context.db, caller.business.id, params.id);
      return moveOrderStatus(context.db, caller.business.id, params.id, body.status, `app:${caller.app.id}`);
    },
  }),
});
