import { z } from "zod";
import { json } from "~/platform/core/http.server";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { redeliverForApp } from "~/platform/webhooks/developer-view.server";

/** `storefront-apps events resend <deliveryId>`: a past delivery of the app sent again, same body and event id (contract 19). */
export const { loader, action, declared } = platformRoute(
  "/developer/apps/{appId}/deliveries/{deliveryId}/resend",
  "DEVELOPER",
  {
    POST: operation({
      appRole: "DEVELOPER",
      summary: "Send a past webhook delivery of the app again (the same bytes and X-Service-Event-Id, a new attempt)",
      params: z.object({ appId: z.string().describe("App id"), deliveryId: z.string().describe("Delivery id") }),
      answer: {
        status: 202,
        schema: z.object({ id: z.string(), status: z.literal("QUEUED") }).meta({ id: "DeliveryResend" }),
      },
      errors: [404],
      handler: async ({ context, params }) => {
        await redeliverForApp(context.db, params.appId, params.deliveryId);
        return json({ id: params.deliveryId, status: "QUEUED" as const }, 202);
      },
    }),
  },
);
