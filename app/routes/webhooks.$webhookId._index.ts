import { appApiRoute } from "~/platform/app-api/wrapper.server";
import { readJson } from "~/platform/core/http.server";
import { deleteRegistration, getRegistration, serializeWebhook, updateRegistration } from "~/platform/webhooks/registrations.server";

export const { loader, action } = appApiRoute({
  GET: { handler: async ({ context, caller, params }) => serializeWebhook(await getRegistration(context.db, caller, params.webhookId!)) },
  PATCH: {
    handler: async ({ request, context, caller, params }) => {
      await getRegistration(context.db, caller, params.webhookId!);
      return updateRegistration(context.db, context.env, caller, params.webhookId!, await readJson(request));
    },
  },
  DELETE: {
    handler: async ({ context, caller, params }) => {
      await deleteRegistration(context.db, caller, params.webhookId!);
      return new Response(null, { status: 204 });
    },
  },
});
