import { json } from "~/platform/core/http.server";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { requireBearerAccount } from "~/platform/accounts/session.server";
import { resendVerification } from "~/platform/accounts/account-mail.server";
import { Accepted } from "~/platform/platform-api/schemas";

/**
 * Under /auth, so declared for `ANYONE`; the handler admits any account's Bearer token (every role
 * verifies its address) and answers 401 without one.
 */
export const { loader, action, declared } = platformRoute("/auth/verify-email/resend", "ANYONE", {
  POST: operation({
    summary: "Send a new verification link to the signed-in account's address (Bearer token of any role)",
    answer: { status: 202, schema: Accepted },
    errors: [401, 409, 429],
    handler: async ({ request, context }) => {
      const { account } = await requireBearerAccount(request, context);
      await resendVerification(context.db, context.env, account);
      return json({ message: `A new link is on its way to ${account.email}.` }, 202);
    },
  }),
});
