import { json } from "~/platform/core/http.server";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { oneBy } from "~/platform/core/operations.server";
import { testInstall } from "~/platform/installs/test-installs.server";
import { TestInstallation } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute("/developer/apps/{appId}/test-install", "DEVELOPER", {
  POST: operation({
    appRole: "DEVELOPER",
    summary:
      "Install the app on the developer's sandbox business, without review; the answer holds its access token and webhook secret",
    ...oneBy("appId", "App id", TestInstallation, { status: 201, errors: [404, 409] }),
    handler: async ({ context, user, params }) =>
      json(await testInstall(context.db, context.env, user.account, params.appId), 201),
  }),
});
