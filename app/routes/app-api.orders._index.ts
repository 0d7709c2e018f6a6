import { appApiRoute } from "~/platform/app-api/wrapper.server";
import { json, paginated, parsePagination, readJson, ApiError } from "~/platform/core/http.server";
import { listOrders } from "~/platform/catalog/queries.server";
import { checkout } from "~/platform/orders/checkout.server";
import { checkoutHooks } from "~/platform/orders/checkout-hooks.server";

export const { loader, action } = appApiRoute({
  GET: {
    scope: "read_orders",
    handler: async ({ request, context, caller }) => {
      const page = parsePagination(new URL(request.url), { limit: 20, max: 50 });
      const { data, total } = await listOrders(context.db, caller.business.id, page);
      return paginated(data, total, page);
    },
  },
  POST: {
    scope: "write_orders",
    handler: async ({ request, context, caller }) => {
      const key = request.headers.get("Idempotency-Key");
      if (key !== null && (key.length < 1 || key.length > 255)) throw new ApiError(400, "Idempotency-Key must be 1-255 characters");
      const body = await readJson(request);
      const result = await checkout(context.db, caller.business, body, {
        hooks: checkoutHooks(context.db, context.env),
        idempotencyKey: key,
        actor: `app:${caller.app.id}`,
      });
      return json(result.order, 201);
    },
  },
});
