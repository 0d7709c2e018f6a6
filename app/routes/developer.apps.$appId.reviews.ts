import { apiRoute, ApiError, paginated, parsePagination } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { getDeveloperApp } from "~/platform/apps/apps.server";
import { listAppReviews } from "~/platform/apps/app-reviews.server";

export const { loader, action } = apiRoute({
  GET: async ({ request, context, params }) => {
    const { account } = await requireApiAccount(request, context, "DEVELOPER");
    const app = await getDeveloperApp(context.db, account.id, params.appId!);
    const url = new URL(request.url);
    const page = parsePagination(url);
    const starsText = url.searchParams.get("stars");
    const stars = starsText === null ? undefined : Number(starsText);
    if (stars !== undefined && !(Number.isInteger(stars) && stars >= 1 && stars <= 5)) throw new ApiError(400, "stars: must be a whole number from 1 to 5");
    const { rows, total } = await listAppReviews(context.db, app.id, { ...page, stars, includeHidden: true });
    return paginated(rows, total, page);
  },
});
