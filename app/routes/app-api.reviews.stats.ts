import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { reviewStats } from "~/platform/catalog/queries.server";
import { ReviewStats } from "~/platform/shapes/api";

export const { loader, action, declared } = appApiRoute("/app-api/reviews/stats", {
  GET: operation({
    summary: "Review statistics",
    scope: "read_reviews",
    answer: { status: 200, schema: ReviewStats },
    errors: [],
    handler: async ({ context, caller }) => reviewStats(context.db, caller.business.id),
  }),
});
