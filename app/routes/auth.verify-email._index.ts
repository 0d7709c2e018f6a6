import { z } from "zod";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { publicAccount } from "~/platform/accounts/accounts.server";
import { verifyEmailToken } from "~/platform/accounts/account-mail.server";
import { AccountAnswer } from "~/platform/platform-api/schemas";

const VerifyEmail = z.object({ token: z.string().max(200) }).meta({ id: "VerifyEmail" });

/** Called without a token (`ANYONE`): the e-mailed token is the proof. */
export const { loader, action, declared } = platformRoute("/auth/verify-email", "ANYONE", {
  POST: operation({
    summary: "Verify the account's address with the e-mailed token (once)",
    body: VerifyEmail,
    answer: { status: 200, schema: AccountAnswer },
    errors: [400, 413],
    handler: async ({ context, body }) => ({ account: publicAccount(await verifyEmailToken(context.db, body.token)) }),
  }),
});
