import { appApiRoute } from "~/platform/app-api/wrapper.server";
import { paginated, parsePagination } from "~/platform/core/http.server";
import { listDeliveries, serializeDelivery } from "~/platform/webhooks/registrations.server";

export const { loader, action } = appApiRoute({
  GET: {
    handler: async ({ request, context, caller, params }) => {
      const page = parsePagination(new URL(request.url));
      const { rows, total } = await listDeliveries(context.db, caller, params.webhookId!, page);
      return paginated(rows.map(serializeDelivery), total, page);
    },
  },
});
