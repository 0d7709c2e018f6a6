import { appApiRoute } from "~/platform/app-api/wrapper.server";
import { json } from "~/platform/core/http.server";
import { redeliver } from "~/platform/webhooks/registrations.server";

export const { loader, action } = appApiRoute({
  POST: { handler: async ({ context, caller, params }) => json(await redeliver(context.db, caller, params.webhookId!, params.deliveryId!), 202) },
});
