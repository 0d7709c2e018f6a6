import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { requireBearerAccount } from "~/platform/accounts/session.server";
import { regenerateRecoveryCodes } from "~/platform/accounts/second-factor.server";
import { clientAddress } from "~/platform/core/client-address.server";
import { json } from "~/platform/core/http.server";
import { RecoveryCodes } from "~/platform/platform-api/security-schemas";

export const { loader, action, declared } = platformRoute("/auth/mfa/recovery-codes", "ANYONE", {
  POST: operation({
    summary: "New recovery codes (the old ones stop working); an account with a second factor only",
    answer: { status: 201, schema: RecoveryCodes },
    errors: [401, 409],
    handler: async ({ request, context }) => {
      const { account, sessionId } = await requireBearerAccount(request, context, { enrolling: true });
      const recoveryCodes = await regenerateRecoveryCodes(context.db, {
        account,
        sessionId,
        ip: clientAddress(request),
      });
      return json({ recoveryCodes }, 201);
    },
  }),
});
