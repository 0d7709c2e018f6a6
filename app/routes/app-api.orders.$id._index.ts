import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { oneBy } from "~/platform/core/operations.server";
import { getOrder } from "~/platform/catalog/queries.server";
import { Order } from "~/platform/shapes/api";

export const { loader, action, declared } = appApiRoute("/app-api/orders/{id}", {
  GET: operation({
    summary: "One order",
    scope: "read_orders",
    ...oneBy("id", "Order id", Order),
    handler: async ({ context, caller, params }) => getOrder(context.db, caller.business.id, params.id),
  }),
});
