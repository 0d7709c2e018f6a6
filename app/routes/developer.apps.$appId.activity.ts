import { z } from "zod";
import { paginated } from "~/platform/core/http.server";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { listActivity, serializeActivity } from "~/platform/activity/activity.server";
import { ActivityList, ActivityQuery } from "~/platform/platform-api/security-schemas";

/** Contract 18: an app's activity log, for the app's members. */
export const { loader, action, declared } = platformRoute("/developer/apps/{appId}/activity", "DEVELOPER", {
  GET: operation({
    summary: "The app's activity log, newest first, filtered by actor, action and time",
    appRole: "VIEWER",
    params: z.object({ appId: z.string().describe("App id") }),
    query: ActivityQuery,
    page: { limit: 50, max: 100 },
    answer: { status: 200, schema: ActivityList },
    errors: [400, 404],
    handler: async ({ context, page, query, params }) => {
      const { rows, total } = await listActivity(context.db, { appId: params.appId }, query, page);
      return paginated(rows.map(serializeActivity), total, page);
    },
  }),
});
