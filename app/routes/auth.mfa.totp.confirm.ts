import { z } from "zod";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { requireBearerAccount } from "~/platform/accounts/session.server";
import { confirmTotp } from "~/platform/accounts/second-factor.server";
import { clientAddress } from "~/platform/core/client-address.server";
import { RecoveryCodes } from "~/platform/platform-api/security-schemas";

export const { loader, action, declared } = platformRoute("/auth/mfa/totp/confirm", "ANYONE", {
  POST: operation({
    summary: "Confirm the authenticator app with its first code; answers 10 recovery codes, shown this once",
    body: z.object({ code: z.string().max(64) }).meta({ id: "TotpConfirm" }),
    answer: { status: 200, schema: RecoveryCodes },
    errors: [400, 401],
    handler: async ({ request, context, body }) => {
      const { account, sessionId } = await requireBearerAccount(request, context, { enrolling: true });
      const recoveryCodes = await confirmTotp(
        context.db,
        context.env,
        { account, sessionId, ip: clientAddress(request) },
        body.code,
      );
      return { recoveryCodes };
    },
  }),
});
