import { apiRoute, readJson } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { getDeveloperApp, listAppVersions, parseAppUpdate, serializeApp, serializeVersion, updateApp } from "~/platform/apps/apps.server";

export const { loader, action } = apiRoute({
  GET: async ({ request, context, params }) => {
    const { account } = await requireApiAccount(request, context, "DEVELOPER");
    const app = await getDeveloperApp(context.db, account.id, params.appId!);
    // the app record plus its approved versions (the changelog), each with its release notes
    return { ...serializeApp(app), versions: (await listAppVersions(context.db, app.id)).map(serializeVersion) };
  },
  PATCH: async ({ request, context, params }) => {
    const { account } = await requireApiAccount(request, context, "DEVELOPER");
    await getDeveloperApp(context.db, account.id, params.appId!);
    const input = parseAppUpdate(context.env, await readJson(request));
    return serializeApp(await updateApp(context.db, account.id, params.appId!, input));
  },
});
