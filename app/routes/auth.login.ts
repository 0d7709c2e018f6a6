import { apiRoute, parseWith, readJson } from "~/platform/core/http.server";
import { authenticate, issueAccountToken, loginSchema, publicAccount } from "~/platform/accounts/accounts.server";
import { clientAddress } from "~/platform/core/client-address.server";

export const { loader, action } = apiRoute({
  POST: async ({ request, context }) => {
    const input = parseWith(loginSchema, await readJson(request));
    const account = await authenticate(context.db, input, clientAddress(request));
    return { token: await issueAccountToken(account, context.env.sessionSecret), account: publicAccount(account) };
  },
});
