import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { idempotencyKeyHeader, paged } from "~/platform/core/operations.server";
import { cursorPaginated } from "~/platform/core/http.server";
import { listOrders } from "~/platform/catalog/queries.server";
import { checkout } from "~/platform/orders/checkout.server";
import { checkoutSchema } from "~/platform/orders/checkout-schema";
import { checkoutHooks } from "~/platform/orders/checkout-hooks.server";
import { Order, OrderList } from "~/platform/shapes/api";

/** The checkout pipeline's own input schema, under the name the document gives it. */
const GuestOrder = checkoutSchema.meta({ id: "GuestOrder" });

export const { loader, action, declared } = appApiRoute("/app-api/orders", {
  GET: operation({
    summary: "List orders, newest first",
    scope: "read_orders",
    ...paged(OrderList, { limit: 20, max: 50 }),
    handler: async ({ context, caller, page }) => {
      const { data, ...found } = await listOrders(context.db, caller.business.id, page);
      return cursorPaginated(data, found, page);
    },
  }),
  POST: operation({
    summary: "Create a guest order through the checkout pipeline",
    scope: "write_orders",
    headers: idempotencyKeyHeader("Retries with the same key and body return the first order for 24 hours"),
    body: GuestOrder,
    answer: { status: 201, schema: Order },
    errors: [400, 413, 422, 502],
    handler: async ({ context, caller, headers, body }) => {
      const result = await checkout(context.db, caller.business, body, {
        hooks: checkoutHooks(context.db, context.env),
        idempotencyKey: headers["Idempotency-Key"] ?? null,
        actor: `app:${caller.app.id}`,
      });
      return result.order;
    },
  }),
});
