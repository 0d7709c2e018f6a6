import { z } from "zod";
import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { getOrderRow } from "~/platform/catalog/queries.server";
import { moveOrderStatus } from "~/platform/orders/status.server";
import { Order, StatusChange } from "~/platform/app-api/schemas";

export const { loader, action, declared } = appApiRoute("/app-api/orders/{id}/status", {
  PATCH: operation({
    summary: "Move an order to another status (allowed moves only)",
    scope: "write_orders",
    params: z.object({ id: z.string().describe("Order id") }),
    body: StatusChange,
    answer: { status: 200, schema: Order },
    errors: [400, 404, 409],
    handler: async ({ context, caller, params, body }) => {
      await getOrderRow(context.db, caller.business.id, params.id);
      return moveOrderStatus(context.db, caller.business.id, params.id, body.status, `app:${caller.app.id}`);
    },
  }),
});
