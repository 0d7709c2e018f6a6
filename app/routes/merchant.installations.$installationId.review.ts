import { operation, merchant, platformRoute } from "~/platform/platform-api/wrapper.server";
import { oneBy } from "~/platform/core/operations.server";
import { ApiError, json } from "~/platform/core/http.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { deleteReview, getOwnReview, putReview, reviewSchema } from "~/platform/apps/app-reviews.server";
import { AppReview } from "~/platform/platform-api/schemas";
import { getBusinessInstallation } from "~/platform/installs/installs.server";

const one = oneBy("installationId", "Installation id", AppReview);
const ReviewInput = reviewSchema.meta({ id: "AppReviewInput" });

export const { loader, action, declared } = platformRoute(
  "/merchant/installations/{installationId}/review",
  merchant("apps"),
  {
    GET: operation({
      summary: "The business's own review of the installed app",
      ...one,
      handler: async ({ context, user, params }) => {
        const business = requireBusiness(user);
        const installation = await getBusinessInstallation(context.db, business.id, params.installationId);
        const review = await getOwnReview(context.db, business.id, installation.appId);
        if (!review) throw new ApiError(404, "Review not found");
        return review;
      },
    }),
    PUT: operation({
      summary: "Write or change the business's review of the app (one per business; the install must qualify)",
      ...one,
      body: ReviewInput,
      errors: [400, 403, 404],
      handler: async ({ context, user, params, body }) =>
        putReview(context.db, requireBusiness(user).id, params.installationId, body),
    }),
    DELETE: operation({
      summary: "Delete the business's review of the app",
      params: one.params,
      answer: { status: 204, description: "Deleted" },
      errors: [404],
      handler: async ({ context, user, params }) => {
        await deleteReview(context.db, requireBusiness(user).id, params.installationId);
        return json(undefined, 204);
      },
    }),
  },
);
