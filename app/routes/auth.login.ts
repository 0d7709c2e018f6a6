import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { loginSchema } from "~/platform/accounts/accounts.server";
import { tokenSignIn } from "~/platform/accounts/second-step.server";
import { deviceOf } from "~/platform/accounts/sign-in-sessions.server";
import { clientAddress } from "~/platform/core/client-address.server";
import { AccountToken } from "~/platform/platform-api/schemas";

/** Called without a token (`ANYONE`): this is where an account's token comes from. */
export const { loader, action, declared } = platformRoute("/auth/login", "ANYONE", {
  POST: operation({
    summary: "Sign in: an account token for an e-mail address and password (and a second factor's code)",
    description:
      "Repeated failures from one address or for one account are slowed down (429 with Retry-After). An account with a second factor answers 401 with `mfaRequired: true` until `otp` (a TOTP or recovery code) is sent; each code works once.",
    body: loginSchema.meta({ id: "Login" }),
    answer: { status: 200, schema: AccountToken },
    errors: [400, 401, 413, 429],
    handler: ({ request, context, body }) =>
      tokenSignIn(context.db, context.env, body, deviceOf(request, clientAddress(request))),
  }),
});
