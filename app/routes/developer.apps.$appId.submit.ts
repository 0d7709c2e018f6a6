import { z } from "zod";
import { clientAddress } from "~/platform/core/client-address.server";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { serializeApp, submitApp, submitSchema } from "~/platform/apps/apps.server";
import { AppRecord } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute("/developer/apps/{appId}/submit", "DEVELOPER", {
  POST: operation({
    appRole: "ADMIN",
    summary: "Submit the app (or an update of an approved app) for review",
    params: z.object({ appId: z.string().describe("App id") }),
    body: submitSchema.meta({ id: "AppSubmit" }),
    bodyOptional: true,
    answer: { status: 200, schema: AppRecord },
    errors: [400, 404, 409, 413],
    handler: async ({ context, user, params, body, request }) =>
      serializeApp(
        await submitApp(context.db, user.account.id, params.appId, body, {
          account: user.account,
          ip: clientAddress(request),
        }),
      ),
  }),
});
