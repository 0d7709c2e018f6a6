import { apiRoute } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { getDeveloperApp } from "~/platform/apps/apps.server";
import { appAnalytics } from "~/platform/analytics/analytics.server";

export const { loader, action } = apiRoute({
  GET: async ({ request, context, params }) => {
    const { account } = await requireApiAccount(request, context, "DEVELOPER");
    const app = await getDeveloperApp(context.db, account.id, params.appId!);
    return appAnalytics(context.db, app.id);
  },
});
