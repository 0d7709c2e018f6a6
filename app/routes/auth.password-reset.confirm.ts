import { z } from "zod";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { publicAccount } from "~/platform/accounts/accounts.server";
import { confirmPasswordReset } from "~/platform/accounts/account-mail.server";
import { AccountAnswer } from "~/platform/platform-api/schemas";

const PasswordResetConfirm = z
  .object({ token: z.string().max(200), password: z.string().max(200) })
  .meta({ id: "PasswordResetConfirm" });

/** Called without a token (`ANYONE`): the e-mailed token is the proof. */
export const { loader, action, declared } = platformRoute("/auth/password-reset/confirm", "ANYONE", {
  POST: operation({
    summary: "Set a new password with a reset link's token (once); every older session and token stops working",
    body: PasswordResetConfirm,
    answer: { status: 200, schema: AccountAnswer },
    errors: [400, 413],
    handler: async ({ context, body }) => ({
      account: publicAccount(await confirmPasswordReset(context.db, body.token, body.password)),
    }),
  }),
});
