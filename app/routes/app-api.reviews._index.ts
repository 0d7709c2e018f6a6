import { appApiRoute } from "~/platform/app-api/wrapper.server";
import { paginated, parsePagination } from "~/platform/core/http.server";
import { listReviews } from "~/platform/catalog/queries.server";
import { serializeReview } from "~/platform/catalog/serialize.server";

export const { loader, action } = appApiRoute({
  GET: {
    scope: "read_reviews",
    handler: async ({ request, context, caller }) => {
      const page = parsePagination(new URL(request.url), { limit: 10, max: 50 });
      const { rows, total } = await listReviews(context.db, caller.business.id, page);
      return paginated(rows.map(serializeReview), total, page);
    },
  },
});
