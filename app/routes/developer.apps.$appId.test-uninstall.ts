import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { oneBy } from "~/platform/core/operations.server";
import { testUninstall } from "~/platform/installs/test-installs.server";
import { Uninstalled } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute("/developer/apps/{appId}/test-uninstall", "DEVELOPER", {
  POST: operation({
    appRole: "DEVELOPER",
    summary: "Uninstall the app from the developer's sandbox business",
    ...oneBy("appId", "App id", Uninstalled),
    handler: async ({ context, user, params }) => testUninstall(context.db, user.account, params.appId),
  }),
});
