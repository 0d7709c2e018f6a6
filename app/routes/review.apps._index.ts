import { apiRoute, paginated, parsePagination } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { serializeApp } from "~/platform/apps/apps.server";
import { listReviewQueue } from "~/platform/apps/review.server";

export const { loader, action } = apiRoute({
  GET: async ({ request, context }) => {
    await requireApiAccount(request, context, "REVIEWER");
    const page = parsePagination(new URL(request.url));
    const { rows, total } = await listReviewQueue(context.db, page);
    return paginated(rows.map(serializeApp), total, page);
  },
});
