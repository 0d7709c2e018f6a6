import { apiRoute } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { regenerateClientSecret } from "~/platform/apps/apps.server";

export const { loader, action } = apiRoute({
  POST: async ({ request, context, params }) => {
    const { account } = await requireApiAccount(request, context, "DEVELOPER");
    return { clientSecret: await regenerateClientSecret(context.db, context.env, account.id, params.appId!) };
  },
});
