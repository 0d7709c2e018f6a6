/**
 * The sign-in's second step (contract 18, decision 072). An account with a second factor is signed
 * in only when the password and the factor both pass:
 * - JSON: `POST /auth/login {email, password}` answers 401 `mfaRequired: true`; with `otp` (a TOTP
 *   or recovery code) it answers the token. A wrong code counts as a failed sign-in (the password's
 *   budgets, `throttledCheck`).
 * - Pages: the right password gives a pending step (a single-use challenge whose id the cookie
 *   holds, `PENDING_STEP`), not a session; the code or a passkey takes it. Going to any page with
 *   only the pending step finds no session; a copy of the cookie replayed after the step finds the
 *   challenge used.
 */
import type { Database } from "../../../db/client";
import type { Account } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { ApiError, errorBody, json } from "../core/http.server";

import { authenticate, issueAccountToken, publicAccount, recordSignInFailed, throttledCheck } from "./accounts.server";
import { createChallenge, failChallenge, peekChallenge, takeChallenge } from "./challenges.server";
import { takeSecondFactorCode } from "./second-factor.server";
import { deviceOf, startSession, type Device } from "./sign-in-sessions.server";
import { clientAddress } from "../core/client-address.server";
import { getAccount } from "./accounts.server";

/** The 401 that asks for the second step (contract 18). */
export const mfaRequired = (
  message = "A second factor is required: send otp (a code from your authenticator app or a recovery code)",
) => json({ ...errorBody(401, message), mfaRequired: true }, 401);

const logWrongCode = (db: Database, account: Account, ip: string) =>
  recordSignInFailed(db, account, ip, "wrong second-factor code");

/** Checks a code of the account's second factor under the sign-in budgets; a wrong one is logged. */
export async function checkCode(db: Database, env: Env, account: Account, code: string, device: Device) {
  const ok = await throttledCheck(db, account, device.ip, () =>
    takeSecondFactorCode(db, env, { account, sessionId: null, ip: device.ip }, code),
  );
  if (!ok) await logWrongCode(db, account, device.ip);
  return ok;
}

/** `POST /auth/login`: the token and account, or the 401 asking for (or refusing) the code. */
export async function tokenSignIn(
  db: Database,
  env: Env,
  input: { email: string; password: string; otp?: string },
  device: Device,
): Promise<Response | { token: string; account: ReturnType<typeof publicAccount> }> {
  const account = await authenticate(db, input, device.ip);
  let method = "password";
  if (account.hasSecondFactor) {
    if (!input.otp) return mfaRequired();
    if (!(await checkCode(db, env, account, input.otp, device)))
      return mfaRequired("The code is not right, or was already used");
    method = "password and code";
  }
  const session = await startSession(db, account, { ...device, kind: "TOKEN", method });
  return { token: await issueAccountToken(account, env.sessionSecret, session.id), account: publicAccount(account) };
}

/** The page's password step passed: a pending second step, whose id the cookie keeps. */
export const beginSecondStep = (db: Database, account: Account) =>
  createChallenge(db, { purpose: "SECOND_STEP", accountId: account.id });

/** The account of a live pending step (for the code page), or null. */
export async function pendingAccount(db: Database, pendingId: unknown): Promise<Account | null> {
  const row = await peekChallenge(db, pendingId, "SECOND_STEP");
  if (!row?.accountId) return null;
  const account = await getAccount(db, row.accountId);
  return account && !account.closedAt ? account : null;
}

/**
 * The page's code step: the code checked (throttled); right, the pending step is taken (once) and
 * the account returned for its session; wrong, the step counts the failure (the fifth ends it).
 */
export async function completeSecondStep(
  db: Database,
  env: Env,
  pendingId: unknown,
  code: string,
  device: Device,
): Promise<Account> {
  const account = await pendingAccount(db, pendingId);
  if (!account) throw new ApiError(409, "Your sign-in expired; enter your e-mail and password again.");
  if (!(await checkCode(db, env, account, code, device))) {
    await failChallenge(db, pendingId as string);
    throw new ApiError(401, "That code is not right, or was already used.");
  }
  if (!(await takeChallenge(db, pendingId, "SECOND_STEP")))
    throw new ApiError(409, "Your sign-in expired; enter your e-mail and password again.");
  return account;
}

/** A passkey answered the pending step (its account was checked by the passkey): the step is taken. */
export async function closeSecondStep(db: Database, pendingId: unknown, account: Account): Promise<void> {
  const row = await takeChallenge(db, pendingId, "SECOND_STEP");
  if (row && row.accountId !== account.id) throw new ApiError(409, "Your sign-in expired; start again.");
}

/**
 * A JWT of a new TOKEN session, for a sign-up or an accepted invitation (the account's first step is
 * its password); `from` is the request it answers (its device and address) or the device itself.
 */
export async function tokenForNewSession(
  db: Database,
  env: Env,
  account: Account,
  from: Request | Device,
  method: string,
) {
  const device = from instanceof Request ? deviceOf(from, clientAddress(from)) : from;
  const session = await startSession(db, account, { ...device, kind: "TOKEN", method });
  return issueAccountToken(account, env.sessionSecret, session.id);
}
