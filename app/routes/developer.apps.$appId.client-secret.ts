import { z } from "zod";
import { clientAddress } from "~/platform/core/client-address.server";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { regenerateClientSecret } from "~/platform/apps/apps.server";
import { ClientSecret } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute("/developer/apps/{appId}/client-secret", "DEVELOPER", {
  POST: operation({
    appRole: "ADMIN",
    summary: "Regenerate the app's client secret (the old one fails at once)",
    params: z.object({ appId: z.string().describe("App id") }),
    answer: { status: 200, schema: ClientSecret },
    errors: [404, 409],
    handler: async ({ context, user, params, request }) => ({
      clientSecret: await regenerateClientSecret(context.db, context.env, user.account.id, params.appId, {
        account: user.account,
        ip: clientAddress(request),
      }),
    }),
  }),
});
