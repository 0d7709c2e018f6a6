import { apiRoute, json } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { testInstall } from "~/platform/installs/test-installs.server";

export const { loader, action } = apiRoute({
  POST: async ({ request, context, params }) => {
    const { account } = await requireApiAccount(request, context, "DEVELOPER");
    return json(await testInstall(context.db, context.env, account, params.appId!), 201);
  },
});
