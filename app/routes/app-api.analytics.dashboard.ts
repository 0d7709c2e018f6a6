import { appApiRoute } from "~/platform/app-api/wrapper.server";
import { dashboard } from "~/platform/catalog/queries.server";

export const { loader, action } = appApiRoute({
  GET: { scope: "read_analytics", handler: async ({ context, caller }) => dashboard(context.db, caller.business.id, caller.business.currency) },
});
