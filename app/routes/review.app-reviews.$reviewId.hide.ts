import { apiRoute, parseWith, readJson } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { hideReview, hideSchema } from "~/platform/apps/app-reviews.server";

export const { loader, action } = apiRoute({
  POST: async ({ request, context, params }) => {
    const { account } = await requireApiAccount(request, context, "REVIEWER");
    const { reason } = parseWith(hideSchema, await readJson(request));
    return hideReview(context.db, account.id, params.reviewId!, reason);
  },
});
