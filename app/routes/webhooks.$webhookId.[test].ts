import { appApiRoute } from "~/platform/app-api/wrapper.server";
import { getRegistration } from "~/platform/webhooks/registrations.server";
import { sendTest } from "~/platform/webhooks/delivery.server";

export const { loader, action } = appApiRoute({
  POST: { handler: async ({ context, caller, params }) => sendTest(context.db, context.env, await getRegistration(context.db, caller, params.webhookId!)) },
});
