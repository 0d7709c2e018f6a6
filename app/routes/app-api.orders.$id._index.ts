import { appApiRoute } from "~/platform/app-api/wrapper.server";
import { getOrder } from "~/platform/catalog/queries.server";

export const { loader, action } = appApiRoute({
  GET: { scope: "read_orders", handler: async ({ context, caller, params }) => getOrder(context.db, caller.business.id, params.id!) },
});
