import { apiRoute, parseWith, readJson } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { replySchema, replyToReview } from "~/platform/apps/app-reviews.server";

export const { loader, action } = apiRoute({
  POST: async ({ request, context, params }) => {
    const { account } = await requireApiAccount(request, context, "DEVELOPER");
    const { body } = parseWith(replySchema, await readJson(request));
    return replyToReview(context.db, account.id, params.appId!, params.reviewId!, body);
  },
});
