import { appApiRoute } from "~/platform/app-api/wrapper.server";
import { json, paginated, parsePagination, readJson } from "~/platform/core/http.server";
import { createRegistration, listRegistrations, serializeWebhook } from "~/platform/webhooks/registrations.server";

export const { loader, action } = appApiRoute({
  GET: {
    handler: async ({ request, context, caller }) => {
      const page = parsePagination(new URL(request.url));
      const { rows, total } = await listRegistrations(context.db, caller, page);
      return paginated(rows.map(serializeWebhook), total, page);
    },
  },
  POST: { handler: async ({ request, context, caller }) => json(await createRegistration(context.db, context.env, caller, await readJson(request)), 201) },
});
