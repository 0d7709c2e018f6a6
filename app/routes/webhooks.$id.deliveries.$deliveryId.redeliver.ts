import { z } from "zod";
import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { redeliver } from "~/platform/webhooks/registrations.server";
import { Redelivery } from "~/platform/shapes/api";

export const { loader, action, declared } = appApiRoute("/webhooks/{id}/deliveries/{deliveryId}/redeliver", {
  POST: operation({
    summary: "A new attempt with the same X-Service-Event-Id",
    params: z.object({ id: z.string().describe("Webhook id"), deliveryId: z.string().describe("Delivery id") }),
    answer: { status: 202, schema: Redelivery },
    errors: [404],
    handler: async ({ context, caller, params }) => redeliver(context.db, caller, params.id, params.deliveryId),
  }),
});
