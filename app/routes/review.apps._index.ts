import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { paginated } from "~/platform/core/http.server";
import { serializeApp } from "~/platform/apps/apps.server";
import { listReviewQueue } from "~/platform/apps/review.server";
import { AppRecordList } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute("/review/apps", "REVIEWER", {
  GET: operation({
    summary: "Apps in review, oldest first",
    page: { limit: 50, max: 100 },
    answer: { status: 200, schema: AppRecordList },
    errors: [400],
    handler: async ({ context, page }) => {
      const { rows, total } = await listReviewQueue(context.db, page);
      return paginated(rows.map(serializeApp), total, page);
    },
  }),
});
