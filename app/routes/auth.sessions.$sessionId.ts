import { z } from "zod";
import { json } from "~/platform/core/http.server";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { requireBearerAccount } from "~/platform/accounts/session.server";
import { endSession } from "~/platform/accounts/sign-in-sessions.server";
import { clientAddress } from "~/platform/core/client-address.server";

export const { loader, action, declared } = platformRoute("/auth/sessions/{sessionId}", "ANYONE", {
  DELETE: operation({
    summary: "End one of the account's sessions (another account's, or an ended one, is 404)",
    params: z.object({ sessionId: z.string().max(100).describe("The session's id") }),
    answer: { status: 204 },
    errors: [401, 404],
    handler: async ({ request, context, params }) => {
      const { account } = await requireBearerAccount(request, context, { enrolling: true });
      await endSession(context.db, { account, ip: clientAddress(request) }, params.sessionId);
      return json(undefined, 204);
    },
  }),
});
