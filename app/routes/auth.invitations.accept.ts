import { tokenForNewSession } from "~/platform/accounts/second-step.server";

import { json } from "~/platform/core/http.server";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { publicAccount } from "~/platform/accounts/accounts.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { acceptInvitation, acceptSchema } from "~/platform/teams/invitations.server";
import { Registered } from "~/platform/platform-api/schemas";

/**
 * Called without a token (`ANYONE`) to accept with a name and a password (a new account), or, for
 * an app's invitation, with the invited developer's own token and `{token}` alone.
 */
export const { loader, action, declared } = platformRoute("/auth/invitations/accept", "ANYONE", {
  POST: operation({
    summary: "Accept an invitation to a business's staff or an app's members (contract 17)",
    description:
      "A staff invitation makes a MERCHANT account of the business (name and password). An app invitation adds the developer: an address without an account registers as a developer (name and password); an existing developer sends `{token}` with their own Bearer token. 404 for an unknown or withdrawn link, 409 once accepted (or for an address that has an account), 410 once expired.",
    body: acceptSchema.meta({ id: "InvitationAccept" }),
    answer: { status: 201, schema: Registered },
    errors: [400, 403, 404, 409, 410, 413],
    handler: async ({ request, context, body }) => {
      const signedIn = request.headers.has("Authorization")
        ? (await requireApiAccount(request, context, "DEVELOPER")).account
        : null;
      const { account, businessId } = await acceptInvitation(context.db, body, signedIn);
      return json(
        {
          token: await tokenForNewSession(context.db, context.env, account, request, "invitation"),
          account: publicAccount(account),
          businessId,
        },
        201,
      );
    },
  }),
});
