import { apiRoute } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { serializeApp, submitApp } from "~/platform/apps/apps.server";

export const { loader, action } = apiRoute({
  POST: async ({ request, context, params }) => {
    const { account } = await requireApiAccount(request, context, "DEVELOPER");
    return serializeApp(await submitApp(context.db, account.id, params.appId!));
  },
});
