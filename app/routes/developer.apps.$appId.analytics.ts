import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { oneBy } from "~/platform/core/operations.server";
import { getDeveloperApp } from "~/platform/apps/apps.server";
import { appAnalytics } from "~/platform/analytics/analytics.server";
import { AppAnalytics } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute("/developer/apps/{appId}/analytics", "DEVELOPER", {
  GET: operation({
    appRole: "VIEWER",
    summary:
      "The app's installs and webhook deliveries over the last 30 days (test installs and installations on developers' sandboxes not counted)",
    ...oneBy("appId", "App id", AppAnalytics),
    handler: async ({ context, user, params }) => {
      const app = await getDeveloperApp(context.db, user.account.id, params.appId);
      return appAnalytics(context.db, app.id);
    },
  }),
});
