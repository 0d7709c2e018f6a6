import { apiRoute } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { testStatus } from "~/platform/installs/test-installs.server";

export const { loader, action } = apiRoute({
  GET: async ({ request, context, params }) => {
    const { account } = await requireApiAccount(request, context, "DEVELOPER");
    return testStatus(context.db, account, params.appId!);
  },
});
