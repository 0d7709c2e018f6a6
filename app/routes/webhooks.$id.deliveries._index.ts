import { z } from "zod";
import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { cursorPaginated } from "~/platform/core/http.server";
import { listDeliveries, serializeDelivery } from "~/platform/webhooks/registrations.server";
import { DELIVERY_COUNT_CAP, DeliveryList } from "~/platform/shapes/api";

export const { loader, action, declared } = appApiRoute("/webhooks/{id}/deliveries", {
  GET: operation({
    summary: "The delivery log, newest first",
    description: `total counts the registration's deliveries up to ${DELIVERY_COUNT_CAP} (a longer log says ${DELIVERY_COUNT_CAP}); page on with nextCursor.`,
    params: z.object({ id: z.string().describe("Webhook id") }),
    page: { limit: 50, max: 100 },
    answer: { status: 200, schema: DeliveryList },
    errors: [400, 404],
    handler: async ({ context, caller, params, page }) => {
      const { rows, ...found } = await listDeliveries(context.db, caller, params.id, page);
      return cursorPaginated(rows.map(serializeDelivery), found, page);
    },
  }),
});
