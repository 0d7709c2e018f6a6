import { listed, operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { paged } from "~/platform/core/operations.server";
import { serializeApp } from "~/platform/apps/apps.server";
import { listReviewQueue } from "~/platform/apps/review.server";
import { AppRecordList } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute("/review/apps", "REVIEWER", {
  GET: operation({
    summary: "Apps in review, oldest first",
    ...paged(AppRecordList, { limit: 50, max: 100 }),
    handler: listed(({ context, page }) => listReviewQueue(context.db, page), serializeApp),
  }),
});
