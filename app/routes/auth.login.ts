import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { authenticate, issueAccountToken, loginSchema, publicAccount } from "~/platform/accounts/accounts.server";
import { clientAddress } from "~/platform/core/client-address.server";
import { AccountToken } from "~/platform/platform-api/schemas";

/** Called without a token (`ANYONE`): this is where an account's token comes from. */
export const { loader, action, declared } = platformRoute("/auth/login", "ANYONE", {
  POST: operation({
    summary: "Sign in: an account token for an e-mail address and password",
    description: "Repeated failures from one address or for one account are slowed down (429 with Retry-After).",
    body: loginSchema.meta({ id: "Login" }),
    answer: { status: 200, schema: AccountToken },
    errors: [400, 401, 413, 429],
    handler: async ({ request, context, body }) => {
      const account = await authenticate(context.db, body, clientAddress(request));
      return { token: await issueAccountToken(account, context.env.sessionSecret), account: publicAccount(account) };
    },
  }),
});
