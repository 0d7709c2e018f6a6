import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { dashboard } from "~/platform/catalog/queries.server";
import { Dashboard } from "~/platform/shapes/api";

export const { loader, action, declared } = appApiRoute("/app-api/analytics/dashboard", {
  GET: operation({
    summary: "Dashboard figures (UTC days)",
    scope: "read_analytics",
    answer: { status: 200, schema: Dashboard },
    errors: [],
    handler: async ({ context, caller }) => dashboard(context.db, caller.business.id, caller.business.currency),
  }),
});
