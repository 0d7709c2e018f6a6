import { z } from "zod";
import { paginated } from "~/platform/core/http.server";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { getDeveloperApp } from "~/platform/apps/apps.server";
import { listAppReviews } from "~/platform/apps/app-reviews.server";
import { AppReviewList } from "~/platform/platform-api/schemas";

const STARS = "must be a whole number from 1 to 5";

export const { loader, action, declared } = platformRoute("/developer/apps/{appId}/reviews", "DEVELOPER", {
  GET: operation({
    appRole: "VIEWER",
    summary: "Merchants' reviews of the app, hidden ones included, newest first",
    params: z.object({ appId: z.string().describe("App id") }),
    query: z.object({
      stars: z
        .string()
        .optional()
        .refine((s) => s === undefined || (Number.isInteger(Number(s)) && Number(s) >= 1 && Number(s) <= 5), STARS)
        .transform((s) => (s === undefined ? undefined : Number(s)))
        .describe("Only reviews with this rating, 1 to 5"),
    }),
    page: { limit: 50, max: 100 },
    answer: { status: 200, schema: AppReviewList },
    errors: [400, 404],
    handler: async ({ context, user, params, query, page }) => {
      const app = await getDeveloperApp(context.db, user.account.id, params.appId);
      const { rows, total } = await listAppReviews(context.db, app.id, {
        ...page,
        stars: query.stars,
        includeHidden: true,
      });
      return paginated(rows, total, page);
    },
  }),
});
