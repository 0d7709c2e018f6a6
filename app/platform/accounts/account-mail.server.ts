/**
 * The account's own messages (contract 16): address verification at registration and on request,
 * password reset (202 for any address; the token works once, for an hour; afterwards every older
 * session and JWT of the account answers 401), and invitations (7 days, for the teams of contract 17).
 */
import { accountActor, recordActivity } from "../activity/activity.server";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database, Db } from "../../../db/client";
import { accounts, sessions, signInAttempts, type Account } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { ApiError } from "../core/http.server";
import { now } from "../core/clock.server";
import { hashPassword } from "../core/crypto.server";
import { passwordProblem } from "./passwords.server";
import { createAccountToken, useAccountToken } from "../mail/tokens.server";
import { queueMail } from "../mail/queue.server";

/** Writes a verification link for the account's address (in the caller's transaction). */
export async function queueVerification(tx: Db, env: Pick<Env, "sessionSecret">, account: Account) {
  const tokenId = await createAccountToken(tx, env, {
    kind: "VERIFY_EMAIL",
    accountId: account.id,
    email: account.email,
  });
  await queueMail(tx, {
    kind: "account.verify_email",
    causeKey: `account.verify_email:${tokenId}`,
    to: { address: account.email, name: account.name },
    accountId: account.id,
    data: { tokenId },
  });
}

/** `createAccount`'s option for a registration: the account starts unverified and is sent its link. */
export const sendsVerification = (env: Pick<Env, "sessionSecret">) => ({
  afterInsert: (tx: Db, account: Account) => queueVerification(tx, env, account),
});

/**
 * Budgets of the mail a caller can make the platform send, counted in PostgreSQL like sign-in's
 * (`sign_in_attempts` rows, one per key and window): per address asked about and per client address.
 * Over budget: 429 with Retry-After.
 */
export const MAIL_THROTTLE = { windowMs: 15 * 60_000, perEmail: 5, perAddress: 30 };

async function takeMailBudget(db: Db, keys: { key: string; limit: number }[]) {
  const t = now();
  const windowStart = new Date(t.getTime() - (t.getTime() % MAIL_THROTTLE.windowMs));
  for (const { key, limit } of keys) {
    const [row] = await db
      .insert(signInAttempts)
      .values({ key, windowStart, failures: 1 })
      .onConflictDoUpdate({
        target: [signInAttempts.key, signInAttempts.windowStart],
        set: { failures: sql`${signInAttempts.failures} + 1` },
      })
      .returning({ n: signInAttempts.failures });
    if (row.n > limit)
      throw new ApiError(429, "Too many requests; try again later", {
        "Retry-After": String(
          Math.max(1, Math.ceil((windowStart.getTime() + MAIL_THROTTLE.windowMs - t.getTime()) / 1000)),
        ),
      });
  }
}

/**
 * `POST /auth/password-reset {email}`: the same work and answer for any address. The budget is
 * counted for the address asked about whether or not it has an account, then the account is looked
 * up and, if there is one, its token and message are written (a few small inserts in the same
 * transaction); nothing is sent while the caller waits.
 */
export async function requestPasswordReset(
  db: Database,
  env: Pick<Env, "sessionSecret">,
  rawEmail: string,
  clientAddress: string,
) {
  const email = rawEmail.trim().toLowerCase();
  await db.transaction(async (tx) => {
    await takeMailBudget(tx, [
      { key: `reset-ip:${clientAddress}`, limit: MAIL_THROTTLE.perAddress },
      { key: `reset-email:${email}`, limit: MAIL_THROTTLE.perEmail },
    ]);
  });
  await db.transaction(async (tx) => {
    const [account] = await tx.select().from(accounts).where(eq(accounts.email, email));
    if (!account) return;
    const tokenId = await createAccountToken(tx, env, { kind: "RESET_PASSWORD", accountId: account.id, email });
    await queueMail(tx, {
      kind: "account.password_reset",
      causeKey: `account.password_reset:${tokenId}`,
      to: { address: account.email, name: account.name },
      accountId: account.id,
      data: { tokenId },
    });
  });
}

/**
 * `POST /auth/password-reset/confirm {token, password}`: uses the token (once), sets the password,
 * bumps the credentials version (every older JWT answers 401) and ends every session, in one
 * transaction. The link came to the address, so the address counts as verified too.
 */
export async function confirmPasswordReset(db: Database, token: unknown, password: string): Promise<Account> {
  const problem = passwordProblem(password);
  if (problem) throw new ApiError(400, `password: ${problem}`);
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const row = await useAccountToken(tx, "RESET_PASSWORD", token);
    if (!row) throw new ApiError(400, "token: this link is invalid, expired or already used; ask for a new one");
    const t = now();
    const [account] = await tx
      .update(accounts)
      .set({
        passwordHash,
        credentialsVersion: sql`${accounts.credentialsVersion} + 1`,
        emailVerifiedAt: sql`coalesce(${accounts.emailVerifiedAt}, ${t.toISOString()}::timestamptz)`,
      })
      .where(and(eq(accounts.id, row.accountId), eq(accounts.email, row.email)))
      .returning();
    if (!account) throw new ApiError(400, "token: this link is invalid, expired or already used; ask for a new one");
    const ended = await tx
      .update(sessions)
      .set({ revokedAt: t })
      .where(and(eq(sessions.accountId, account.id), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    await recordActivity(tx, {
      businessId: account.businessId,
      accountId: account.id,
      actor: accountActor(account),
      action: "account.password_changed",
      target: { type: "account", id: account.id },
      details: { how: "reset link", sessionsEnded: ended.length },
    });
    return account;
  });
}

/** `POST /auth/verify-email {token}` and the link's page: the address is verified (the token works once). */
export async function verifyEmailToken(db: Database, token: unknown): Promise<Account> {
  return db.transaction(async (tx) => {
    const row = await useAccountToken(tx, "VERIFY_EMAIL", token);
    if (!row) throw new ApiError(400, "token: this link is invalid, expired or already used; ask for a new one");
    const [account] = await tx
      .update(accounts)
      .set({ emailVerifiedAt: sql`coalesce(${accounts.emailVerifiedAt}, ${now().toISOString()}::timestamptz)` })
      .where(and(eq(accounts.id, row.accountId), eq(accounts.email, row.email)))
      .returning();
    if (!account) throw new ApiError(400, "token: this link was for another address; ask for a new one");
    return account;
  });
}

/** `POST /auth/verify-email/resend` (signed in): a new link, within the mail budget; 409 once verified. */
export async function resendVerification(db: Database, env: Pick<Env, "sessionSecret">, account: Account) {
  if (account.emailVerifiedAt) throw new ApiError(409, "This address is already verified");
  await db.transaction(async (tx) => {
    await takeMailBudget(tx, [{ key: `verify-account:${account.id}`, limit: MAIL_THROTTLE.perEmail }]);
  });
  await db.transaction((tx) => queueVerification(tx, env, account));
}

/**
 * An invitation (contract 17, used by the teams): a link to accept, 7 days, single use, to an address
 * that may have no account yet. `accountId` is the inviting account (the token's owner); the accepted
 * invitation is read back with `useAccountToken(db, "INVITATION", token)`, whose row keeps `email` and
 * `data` (what the invitation grants).
 */
export async function sendInvitation(
  tx: Db,
  env: Pick<Env, "sessionSecret">,
  input: { invitedBy: Account; email: string; to: string; role: string; data: Record<string, unknown> },
): Promise<string> {
  const tokenId = await createAccountToken(tx, env, {
    kind: "INVITATION",
    accountId: input.invitedBy.id,
    email: input.email,
    data: input.data,
  });
  await queueMail(tx, {
    kind: "invitation",
    causeKey: `invitation:${tokenId}`,
    to: { address: input.email },
    businessId: typeof input.data.businessId === "string" ? input.data.businessId : null,
    data: { tokenId, inviter: input.invitedBy.name, to: input.to, role: input.role },
  });
  return tokenId;
}
