import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { requireBearerAccount } from "~/platform/accounts/session.server";
import { endOtherSessions, listSessions } from "~/platform/accounts/sign-in-sessions.server";
import { clientAddress } from "~/platform/core/client-address.server";
import { SessionsEnded, SignInSessionList } from "~/platform/platform-api/security-schemas";

export const { loader, action, declared } = platformRoute("/auth/sessions", "ANYONE", {
  GET: operation({
    summary: "The signed-in account's live sessions (browsers and tokens), `current` marking this one",
    answer: { status: 200, schema: SignInSessionList },
    errors: [401],
    handler: async ({ request, context }) => {
      const { account, sessionId } = await requireBearerAccount(request, context, { enrolling: true });
      const rows = await listSessions(context.db, account.id, sessionId);
      return {
        data: rows.map(({ id, createdAt, lastSeenAt, ip, userAgent, current }) => ({
          id,
          createdAt,
          lastSeenAt,
          ip,
          userAgent,
          current,
        })),
      };
    },
  }),
  DELETE: operation({
    summary: "End every session of the account but this one; their tokens answer 401 at once",
    answer: { status: 200, schema: SessionsEnded },
    errors: [401],
    handler: async ({ request, context }) => {
      const { account, sessionId } = await requireBearerAccount(request, context, { enrolling: true });
      return { ended: await endOtherSessions(context.db, { account, ip: clientAddress(request) }, sessionId) };
    },
  }),
});
