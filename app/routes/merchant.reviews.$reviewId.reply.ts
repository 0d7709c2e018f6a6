import { json } from "~/platform/core/http.server";
import { merchant, operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { oneBy, pathParams } from "~/platform/core/operations.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { removeReviewReply, replyToReview } from "~/platform/catalog/products.server";
import { ReviewReplyBody, ReviewReplyRecord } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute("/merchant/reviews/{reviewId}/reply", merchant("products"), {
  POST: operation({
    summary: "Answer a shopper's review in public (1-2,000 characters); answering again replaces the reply",
    description:
      "The reply shows under the review on the storefront's product page and in the App API's review (`reply`). Another business's review is 404.",
    ...oneBy("reviewId", "Review id", ReviewReplyRecord, { status: 201, errors: [400, 404] }),
    body: ReviewReplyBody,
    handler: async ({ context, user, params, body }) =>
      json(await replyToReview(context.db, requireBusiness(user).id, params.reviewId, body.body), 201),
  }),
  DELETE: operation({
    summary: "Remove the reply to a review (404 when there is none)",
    params: pathParams({ reviewId: "Review id" }),
    answer: { status: 204, description: "Removed" },
    errors: [404],
    handler: async ({ context, user, params }) => {
      await removeReviewReply(context.db, requireBusiness(user).id, params.reviewId);
      return json(undefined, 204);
    },
  }),
});
