import { z } from "zod";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { hideReview, hideSchema } from "~/platform/apps/app-reviews.server";
import { AppReview } from "~/platform/platform-api/schemas";

const HideReview = hideSchema.meta({ id: "HideReview" });

export const { loader, action, declared } = platformRoute("/review/app-reviews/{reviewId}/hide", "REVIEWER", {
  POST: operation({
    summary: "Hide a merchant's review of an app from the marketplace, with the reason its author is shown",
    params: z.object({ reviewId: z.string().describe("Review id") }),
    body: HideReview,
    answer: { status: 200, schema: AppReview },
    errors: [400, 404],
    handler: async ({ context, user, params, body }) =>
      hideReview(context.db, user.account.id, params.reviewId, body.reason),
  }),
});
