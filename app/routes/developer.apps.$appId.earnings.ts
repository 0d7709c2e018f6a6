import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { oneBy } from "~/platform/core/operations.server";
import { getDeveloperApp } from "~/platform/apps/apps.server";
import { appEarnings } from "~/platform/billing/earnings.server";
import { EarningsAnswer } from "~/platform/billing/schemas";

export const { loader, action, declared } = platformRoute("/developer/apps/{appId}/earnings", "DEVELOPER", {
  GET: operation({
    appRole: "ADMIN",
    summary:
      "The app's earnings per month (gross, the platform's fee, net; minor units), subscribers by plan and churn",
    ...oneBy("appId", "App id", EarningsAnswer),
    handler: async ({ context, user, params }) => {
      const app = await getDeveloperApp(context.db, user.account.id, params.appId);
      return appEarnings(context.db, app.id);
    },
  }),
});
