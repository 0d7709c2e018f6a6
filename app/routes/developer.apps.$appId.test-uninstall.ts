import { apiRoute } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { testUninstall } from "~/platform/installs/test-installs.server";

export const { loader, action } = apiRoute({
  POST: async ({ request, context, params }) => {
    const { account } = await requireApiAccount(request, context, "DEVELOPER");
    return testUninstall(context.db, account, params.appId!);
  },
});
