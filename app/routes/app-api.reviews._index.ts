import { replicaOf } from "~/platform/core/context";
import { appApiRoute, listed, operation } from "~/platform/app-api/wrapper.server";
import { paged } from "~/platform/core/operations.server";
import { listReviews } from "~/platform/catalog/queries.server";
import { serializeReview } from "~/platform/catalog/serialize.server";
import { ReviewList } from "~/platform/shapes/api";

export const { loader, action, declared } = appApiRoute("/app-api/reviews", {
  GET: operation({
    summary: "List reviews, newest first",
    scope: "read_reviews",
    ...paged(ReviewList, { limit: 10, max: 50 }),
    handler: listed(
      ({ context, caller, page }) => listReviews(replicaOf(context), caller.business.id, page),
      serializeReview,
    ),
  }),
});
