import { z } from "zod";
import { json } from "~/platform/core/http.server";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { requireBearerAccount } from "~/platform/accounts/session.server";
import { beginTotp, removeTotp } from "~/platform/accounts/second-factor.server";
import { clientAddress } from "~/platform/core/client-address.server";
import { TotpEnrolment } from "~/platform/platform-api/security-schemas";

/** Under /auth (`ANYONE`); the handlers admit any account's Bearer token, also one that must still enrol. */
export const { loader, action, declared } = platformRoute("/auth/mfa/totp", "ANYONE", {
  POST: operation({
    summary: "Start setting up an authenticator app (TOTP): its secret, confirmed by POST /auth/mfa/totp/confirm",
    answer: { status: 201, schema: TotpEnrolment },
    errors: [401, 409],
    handler: async ({ request, context }) => {
      const { account } = await requireBearerAccount(request, context, { enrolling: true });
      return json(await beginTotp(context.db, context.env, account), 201);
    },
  }),
  DELETE: operation({
    summary: "Remove the authenticator app; takes one of its codes (or a recovery code)",
    body: z.object({ code: z.string().max(64) }).meta({ id: "TotpCode" }),
    answer: { status: 204 },
    errors: [400, 401, 404, 429],
    handler: async ({ request, context, body }) => {
      const { account, sessionId } = await requireBearerAccount(request, context, { enrolling: true });
      await removeTotp(context.db, context.env, { account, sessionId, ip: clientAddress(request) }, body.code);
      return json(undefined, 204);
    },
  }),
});
