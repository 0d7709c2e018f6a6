import { z } from "zod";
import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { paginated } from "~/platform/core/http.server";
import { listDeliveries, serializeDelivery } from "~/platform/webhooks/registrations.server";
import { DeliveryList } from "~/platform/app-api/schemas";

export const { loader, action, declared } = appApiRoute("/webhooks/{id}/deliveries", {
  GET: operation({
    summary: "The delivery log, newest first",
    params: z.object({ id: z.string().describe("Webhook id") }),
    page: { limit: 50, max: 100 },
    answer: { status: 200, schema: DeliveryList },
    errors: [400, 404],
    handler: async ({ context, caller, params, page }) => {
      const { rows, total } = await listDeliveries(context.db, caller, params.id, page);
      return paginated(rows.map(serializeDelivery), total, page);
    },
  }),
});
