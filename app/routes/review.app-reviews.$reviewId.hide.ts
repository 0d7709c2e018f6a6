import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { oneBy } from "~/platform/core/operations.server";
import { hideReview, hideSchema } from "~/platform/apps/app-reviews.server";
import { AppReview } from "~/platform/platform-api/schemas";

const HideReview = hideSchema.meta({ id: "HideReview" });

export const { loader, action, declared } = platformRoute("/review/app-reviews/{reviewId}/hide", "REVIEWER", {
  POST: operation({
    summary: "Hide a merchant's review of an app from the marketplace, with the reason its author is shown",
    ...oneBy("reviewId", "Review id", AppReview, { errors: [400, 404] }),
    body: HideReview,
    handler: async ({ context, user, params, body }) =>
      hideReview(context.db, user.account.id, params.reviewId, body.reason),
  }),
});
