import { apiRoute, readJson } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { getDeveloperApp, parseAppUpdate, serializeApp, updateApp } from "~/platform/apps/apps.server";

export const { loader, action } = apiRoute({
  GET: async ({ request, context, params }) => {
    const { account } = await requireApiAccount(request, context, "DEVELOPER");
    return serializeApp(await getDeveloperApp(context.db, account.id, params.appId!));
  },
  PATCH: async ({ request, context, params }) => {
    const { account } = await requireApiAccount(request, context, "DEVELOPER");
    await getDeveloperApp(context.db, account.id, params.appId!);
    const input = parseAppUpdate(context.env, await readJson(request));
    return serializeApp(await updateApp(context.db, account.id, params.appId!, input));
  },
});
