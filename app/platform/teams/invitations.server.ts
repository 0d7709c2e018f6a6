/**
 * Invitations (contract 17; decision 069): to a business's staff or to an app's members. A link
 * `/invitations/<token>` valid 7 days and once; only the token's SHA-256 is stored. Accepting makes
 * the account (a MERCHANT of the business, or a DEVELOPER with its sandbox) or, for an app, adds an
 * existing developer signed in as the invited address.
 */
import { accountActor, recordActivity } from "../activity/activity.server";
import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Database, Db } from "../../../db/client";
import { accounts, appMembers, apps, businesses, invitations, type Account, type Invitation } from "../../../db/schema";
import { uniqueViolation } from "../../../db/sql";
import type { Env } from "../core/env.server";
import { ApiError } from "../core/http.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { hashPassword, sha256 } from "../core/crypto.server";
import { passwordProblem } from "../accounts/passwords.server";
import { createBusiness } from "../accounts/accounts.server";
import { APP_ROLE_LABELS, PERMISSION_LABELS, type AppRole, type Permission } from "../accounts/permissions";
import { sendInvitation } from "../accounts/account-mail.server";
import { tokenOf, useAccountToken } from "../mail/tokens.server";

export const INVITATION_TTL_MS = 7 * 24 * 3600_000;

type NewInvitation = {
  invitedBy: { accountId: string; name: string };
  email: string;
} & (
  | { kind: "STAFF"; businessId: string; permissions: Permission[] }
  | { kind: "APP"; appId: string; appRole: Exclude<AppRole, "OWNER"> }
);

/**
 * Writes an invitation and its message in the caller's transaction (contract 16: always sent, to
 * the invited address, a link to accept). The message and its single-use token come from the mail
 * domain (`sendInvitation`, which keeps the token only as an HMAC of its row's id); the invitation
 * keeps the same token's SHA-256, so the link opens it here.
 */
export async function newInvitation(tx: Db, env: Pick<Env, "publicUrl" | "sessionSecret">, input: NewInvitation) {
  const t = now();
  const to = await targetName(
    tx,
    input.kind === "STAFF" ? { kind: "STAFF", businessId: input.businessId } : { kind: "APP", appId: input.appId },
  );
  const tokenId = await sendInvitation(tx, env, {
    invitedBy: { id: input.invitedBy.accountId, name: input.invitedBy.name } as Account,
    email: input.email,
    to,
    role:
      input.kind === "STAFF"
        ? input.permissions.length
          ? input.permissions.map((p) => PERMISSION_LABELS[p].label).join(", ")
          : "no permissions yet"
        : APP_ROLE_LABELS[input.appRole].label,
    data: input.kind === "STAFF" ? { businessId: input.businessId } : { appId: input.appId },
  });
  const token = tokenOf(env, tokenId);
  const [invitation] = await tx
    .insert(invitations)
    .values({
      id: newId("inv"),
      kind: input.kind,
      businessId: input.kind === "STAFF" ? input.businessId : null,
      appId: input.kind === "APP" ? input.appId : null,
      email: input.email,
      permissions: input.kind === "STAFF" ? input.permissions : [],
      appRole: input.kind === "APP" ? input.appRole : null,
      tokenHash: sha256(token),
      invitedBy: input.invitedBy.accountId,
      createdAt: t,
      expiresAt: new Date(t.getTime() + INVITATION_TTL_MS),
    })
    .returning();
  return { invitation, token };
}

/** What the invitation page shows before the person accepts. */
export type InvitationView = {
  kind: Invitation["kind"];
  email: string;
  /** the business's or the app's name */
  to: string;
  permissions: string[];
  appRole: string | null;
  /** the address already has an account (an app invitation is then accepted signed in as it) */
  hasAccount: boolean;
};

const invalidLink = () =>
  new ApiError(404, "This invitation link is not valid: it was withdrawn, or the address is mistyped");

/** The invitation a token opens, when it can still be accepted; 404, 409 (used) or 410 (expired) otherwise. */
async function openInvitation(db: Db, token: unknown, lock: boolean): Promise<Invitation> {
  if (typeof token !== "string" || token.length < 20 || token.length > 200) throw invalidLink();
  const query = db
    .select()
    .from(invitations)
    .where(eq(invitations.tokenHash, sha256(token)));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw invalidLink();
  if (row.acceptedAt) throw new ApiError(409, "This invitation has been accepted already; sign in instead");
  if (row.expiresAt <= now())
    throw new ApiError(410, "This invitation has expired (invitations last 7 days); ask for a new one");
  return row;
}

export async function viewInvitation(db: Db, token: unknown): Promise<InvitationView> {
  const row = await openInvitation(db, token, false);
  const [account] = await db
    .select({ id: accounts.id, closedAt: accounts.closedAt })
    .from(accounts)
    .where(eq(accounts.email, row.email));
  return {
    kind: row.kind,
    email: row.email,
    to: await targetName(db, row),
    permissions: row.permissions,
    appRole: row.appRole,
    hasAccount: !!account && !account.closedAt,
  };
}

async function targetName(
  db: Db,
  row:
    | Pick<Invitation, "kind" | "businessId" | "appId">
    | { kind: "STAFF"; businessId: string }
    | { kind: "APP"; appId: string },
): Promise<string> {
  if (row.kind === "STAFF") {
    const [b] = await db
      .select({ name: businesses.name })
      .from(businesses)
      .where(eq(businesses.id, row.businessId ?? ""));
    return b?.name ?? "";
  }
  const [a] = await db
    .select({ name: apps.name })
    .from(apps)
    .where(eq(apps.id, ("appId" in row && row.appId) || ""));
  return a?.name ?? "";
}

export const acceptSchema = z.object({
  token: z.string().min(1, "is required").max(200),
  name: z.string().trim().min(1, "is required").max(100).optional(),
  password: z.string().max(200).optional(),
});

/**
 * `POST /auth/invitations/accept` and the invitation page. The invitation row is locked first, so of
 * two accepts at once one wins and the other is told it was accepted already (409).
 * - A staff invitation makes a MERCHANT account of the business with the invitation's permissions
 *   (name and password required). An address that has an account already is refused, saying so; a
 *   removed member's closed account is opened again instead (decision 069).
 * - An app invitation adds a developer: signed in (`signedIn`) as the invited address, that
 *   account; otherwise a new DEVELOPER account (with its sandbox) from name and password.
 */
export async function acceptInvitation(
  db: Database,
  input: z.output<typeof acceptSchema>,
  signedIn: Account | null,
): Promise<{ account: Account; businessId: string | null }> {
  const needsPassword = !signedIn;
  let passwordHash: string | null = null;
  if (needsPassword) {
    if (!input.name) throw new ApiError(400, "name: is required");
    const problem = passwordProblem(input.password ?? "");
    if (problem) throw new ApiError(400, `password: ${problem}`);
    passwordHash = await hashPassword(input.password!);
  }
  try {
    return await db.transaction(async (tx) => {
      const invitation = await openInvitation(tx, input.token, true);
      const [existing] = await tx.select().from(accounts).where(eq(accounts.email, invitation.email)).for("update");
      const t = now();
      let account: Account;
      if (signedIn) {
        if (invitation.kind === "STAFF")
          throw new ApiError(
            409,
            "A staff invitation makes a new account: sign out and accept it with a name and a password",
          );
        if (signedIn.email !== invitation.email || signedIn.role !== "DEVELOPER")
          throw new ApiError(
            403,
            `This invitation is for ${invitation.email}; sign in as that developer account to accept it`,
          );
        account = signedIn;
      } else if (existing && !(existing.closedAt && existing.role === "MERCHANT" && invitation.kind === "STAFF")) {
        throw new ApiError(
          409,
          invitation.kind === "APP" && existing.role === "DEVELOPER"
            ? `${invitation.email} already has a developer account: sign in as it and accept the invitation`
            : `${invitation.email} already has an account (${existing.role.toLowerCase()}); it cannot accept this invitation. Ask for an invitation to another address.`,
        );
      } else if (invitation.kind === "STAFF") {
        const values = {
          name: input.name!,
          passwordHash: passwordHash!,
          businessId: invitation.businessId,
          staffPermissions: invitation.permissions,
          closedAt: null,
          lastSignInAt: t,
          // the link came to the address: it is verified (contract 16)
          emailVerifiedAt: t,
        };
        [account] = existing
          ? await tx.update(accounts).set(values).where(eq(accounts.id, existing.id)).returning()
          : await tx
              .insert(accounts)
              .values({ id: newId("acct"), email: invitation.email, role: "MERCHANT", createdAt: t, ...values })
              .returning();
      } else {
        const sandbox = await createBusiness(tx, { name: `${input.name}'s sandbox`, isSandbox: true });
        [account] = await tx
          .insert(accounts)
          .values({
            id: newId("acct"),
            email: invitation.email,
            name: input.name!,
            role: "DEVELOPER",
            passwordHash: passwordHash!,
            businessId: sandbox.id,
            createdAt: t,
            lastSignInAt: t,
            emailVerifiedAt: t,
          })
          .returning();
      }
      if (invitation.kind === "APP") {
        const added = await tx
          .insert(appMembers)
          .values({ appId: invitation.appId!, accountId: account.id, role: invitation.appRole!, createdAt: t })
          .onConflictDoNothing()
          .returning();
        if (!added.length) throw new ApiError(409, "You are a member of this app already");
      }
      await recordActivity(tx, {
        businessId: invitation.kind === "STAFF" ? invitation.businessId : null,
        appId: invitation.kind === "APP" ? invitation.appId : null,
        actor: accountActor(account),
        action: invitation.kind === "STAFF" ? "staff.joined" : "app_member.joined",
        target: { type: "account", id: account.id },
        details: { invitation: invitation.id },
      });
      // the mail domain's token of the same link is spent too (it works once)
      await useAccountToken(tx, "INVITATION", input.token);
      await tx
        .update(invitations)
        .set({ acceptedAt: t, acceptedBy: account.id })
        .where(and(eq(invitations.id, invitation.id), isNull(invitations.acceptedAt)));
      return { account, businessId: account.businessId };
    });
  } catch (e) {
    if (uniqueViolation(e) === "accounts_email_key")
      throw new ApiError(409, "An account with this address was made at the same moment; sign in instead");
    throw e;
  }
}
