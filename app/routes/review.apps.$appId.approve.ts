import { apiRoute } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { serializeApp } from "~/platform/apps/apps.server";
import { approveApp } from "~/platform/apps/review.server";

export const { loader, action } = apiRoute({
  POST: async ({ request, context, params }) => {
    const { account } = await requireApiAccount(request, context, "REVIEWER");
    return serializeApp(await approveApp(context.db, account.id, params.appId!));
  },
});
