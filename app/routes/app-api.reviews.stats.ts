import { appApiRoute } from "~/platform/app-api/wrapper.server";
import { reviewStats } from "~/platform/catalog/queries.server";

export const { loader, action } = appApiRoute({
  GET: { scope: "read_reviews", handler: async ({ context, caller }) => reviewStats(context.db, caller.business.id) },
});
