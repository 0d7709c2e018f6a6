import { apiRoute, json, parseWith, readJson } from "~/platform/core/http.server";
import { createAccount, issueAccountToken, publicAccount, registerSchema } from "~/platform/accounts/accounts.server";

export const { loader, action } = apiRoute({
  POST: async ({ request, context }) => {
    const input = parseWith(registerSchema, await readJson(request));
    const { account, business } = await createAccount(context.db, input);
    return json({ token: await issueAccountToken(account, context.env.sessionSecret), account: publicAccount(account), businessId: business?.id ?? null }, 201);
  },
});
