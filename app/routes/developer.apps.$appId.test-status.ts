import { z } from "zod";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { testStatus } from "~/platform/installs/test-installs.server";
import { TestStatus } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute("/developer/apps/{appId}/test-status", "DEVELOPER", {
  GET: operation({
    summary: "Whether the app is installed on the developer's sandbox business",
    params: z.object({ appId: z.string().describe("App id") }),
    answer: { status: 200, schema: TestStatus },
    errors: [404],
    handler: async ({ context, user, params }) => testStatus(context.db, user.account, params.appId),
  }),
});
