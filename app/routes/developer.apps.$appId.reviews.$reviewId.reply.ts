import { z } from "zod";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { replySchema, replyToReview } from "~/platform/apps/app-reviews.server";
import { AppReview } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute(
  "/developer/apps/{appId}/reviews/{reviewId}/reply",
  "DEVELOPER",
  {
    POST: operation({
      appRole: "DEVELOPER",
      summary: "Reply to a merchant's review of the app (once)",
      params: z.object({ appId: z.string().describe("App id"), reviewId: z.string().describe("Review id") }),
      body: replySchema.meta({ id: "ReviewReply" }),
      answer: { status: 200, schema: AppReview },
      errors: [400, 404, 409, 413],
      handler: async ({ context, user, params, body }) =>
        replyToReview(context.db, user.account.id, params.appId, params.reviewId, body.body),
    }),
  },
);
