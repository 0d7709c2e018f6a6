import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { oneBy } from "~/platform/core/operations.server";
import { testStatus } from "~/platform/installs/test-installs.server";
import { TestStatus } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute("/developer/apps/{appId}/test-status", "DEVELOPER", {
  GET: operation({
    appRole: "VIEWER",
    summary: "Whether the app is installed on the developer's sandbox business",
    ...oneBy("appId", "App id", TestStatus),
    handler: async ({ context, user, params }) => testStatus(context.db, user.account, params.appId),
  }),
});
