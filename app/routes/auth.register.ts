import { tokenForNewSession } from "~/platform/accounts/second-step.server";

import { json } from "~/platform/core/http.server";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { createAccount, publicAccount, registerSchema } from "~/platform/accounts/accounts.server";
import { Registered } from "~/platform/platform-api/schemas";
import { sendsVerification } from "~/platform/accounts/account-mail.server";

/** Called without a token (`ANYONE`): a new developer or merchant account (a merchant's with its business). */
export const { loader, action, declared } = platformRoute("/auth/register", "ANYONE", {
  POST: operation({
    summary: "Create a developer or merchant account (a merchant's with its business) and sign it in",
    body: registerSchema.meta({ id: "Register" }),
    answer: { status: 201, schema: Registered },
    errors: [400, 409, 413],
    handler: async ({ request, context, body }) => {
      // the account starts unverified; its verification link is written in the same transaction (contract 16)
      const { account, business } = await createAccount(context.db, body, sendsVerification(context.env));
      return json(
        {
          token: await tokenForNewSession(context.db, context.env, account, request, "registration"),
          account: publicAccount(account),
          businessId: business?.id ?? null,
        },
        201,
      );
    },
  }),
});
