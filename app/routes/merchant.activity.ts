import { paginated } from "~/platform/core/http.server";
import { merchant, operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { listActivity, serializeActivity } from "~/platform/activity/activity.server";
import { ActivityList, ActivityQuery } from "~/platform/platform-api/security-schemas";

/** Contract 18: the business's activity log, for the owner and members with `staff`. */
export const { loader, action, declared } = platformRoute("/merchant/activity", merchant("staff"), {
  GET: operation({
    summary: "The business's activity log, newest first, filtered by actor, action and time",
    query: ActivityQuery,
    page: { limit: 50, max: 100 },
    answer: { status: 200, schema: ActivityList },
    errors: [400],
    handler: async ({ context, user, page, query }) => {
      const { rows, total } = await listActivity(context.db, { businessId: user.member!.businessId }, query, page);
      return paginated(rows.map(serializeActivity), total, page);
    },
  }),
});
