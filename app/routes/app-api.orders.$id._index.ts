import { z } from "zod";
import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { getOrder } from "~/platform/catalog/queries.server";
import { Order } from "~/platform/app-api/schemas";

export const { loader, action, declared } = appApiRoute("/app-api/orders/{id}", {
  GET: operation({
    summary: "One order",
    scope: "read_orders",
    params: z.object({ id: z.string().describe("Order id") }),
    answer: { status: 200, schema: Order },
    errors: [404],
    handler: async ({ context, caller, params }) => getOrder(context.db, caller.business.id, params.id),
  }),
});
