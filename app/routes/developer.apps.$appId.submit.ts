import { apiRoute, parseWith, readJson } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { serializeApp, submitApp, submitSchema } from "~/platform/apps/apps.server";

export const { loader, action } = apiRoute({
  POST: async ({ request, context, params }) => {
    const { account } = await requireApiAccount(request, context, "DEVELOPER");
    const input = parseWith(submitSchema, await readJson(request, { optional: true }));
    return serializeApp(await submitApp(context.db, account.id, params.appId!, input));
  },
});
