import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { paginated } from "~/platform/core/http.server";
import { listReviews } from "~/platform/catalog/queries.server";
import { serializeReview } from "~/platform/catalog/serialize.server";
import { ReviewList } from "~/platform/app-api/schemas";

export const { loader, action, declared } = appApiRoute("/app-api/reviews", {
  GET: operation({
    summary: "List reviews, newest first",
    scope: "read_reviews",
    page: { limit: 10, max: 50 },
    answer: { status: 200, schema: ReviewList },
    errors: [400],
    handler: async ({ context, caller, page }) => {
      const { rows, total } = await listReviews(context.db, caller.business.id, page);
      return paginated(rows.map(serializeReview), total, page);
    },
  }),
});
