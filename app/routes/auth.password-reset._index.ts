import { z } from "zod";
import { json } from "~/platform/core/http.server";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { clientAddress } from "~/platform/core/client-address.server";
import { requestPasswordReset } from "~/platform/accounts/account-mail.server";
import { Accepted } from "~/platform/platform-api/schemas";

const PasswordResetRequest = z
  .object({ email: z.string().trim().toLowerCase().max(254) })
  .meta({ id: "PasswordResetRequest" });

export const RESET_ACCEPTED = "If an account has this address, a link to reset its password is on its way.";

/** Called without a token (`ANYONE`): the same answer, in the same time, whether or not the address has an account. */
export const { loader, action, declared } = platformRoute("/auth/password-reset", "ANYONE", {
  POST: operation({
    summary: "Ask for a password reset link (sent if an account has the address)",
    description: "Answers 202 for any address. Requests per address and per client are limited (429 with Retry-After).",
    body: PasswordResetRequest,
    answer: { status: 202, schema: Accepted },
    errors: [400, 413, 429],
    handler: async ({ request, context, body }) => {
      await requestPasswordReset(context.db, context.env, body.email, clientAddress(request));
      return json({ message: RESET_ACCEPTED }, 202);
    },
  }),
});
