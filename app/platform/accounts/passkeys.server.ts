/**
 * Passkeys (WebAuthn through @simplewebauthn/server; contract 18, decision 072): an account registers
 * several, names and removes them, and uses one as its second factor or to sign in alone (a
 * discoverable credential with user verification). The relying party is PUBLIC_URL's host and the
 * only origin accepted is PUBLIC_URL's: a passkey made for this platform answers no other site.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import type { Database, Db } from "../../../db/client";
import { accounts, passkeys, type Account } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { ApiError } from "../core/http.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { accountActor, recordActivity } from "../activity/activity.server";
import { queueSecurityNotice } from "../mail/security-mail.server";
import { createChallenge, takeChallenge } from "./challenges.server";
import { refreshSecondFactor, type FactorActor } from "./second-factor.server";

const rpOf = (env: Pick<Env, "publicUrl">) => ({
  rpID: new URL(env.publicUrl).hostname,
  origin: new URL(env.publicUrl).origin,
});
const MAX_PASSKEYS = 20;

export async function listPasskeys(db: Db, accountId: string) {
  const rows = await db
    .select()
    .from(passkeys)
    .where(eq(passkeys.accountId, accountId))
    .orderBy(desc(passkeys.createdAt));
  return rows.map((p) => ({
    id: p.id,
    name: p.name,
    createdAt: p.createdAt.toISOString(),
    lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
  }));
}

/** Registration, step one: the options for `navigator.credentials.create` and the challenge's id (for the cookie). */
export async function passkeyRegistrationOptions(db: Db, env: Env, account: Account) {
  const { rpID } = rpOf(env);
  const existing = await db
    .select({ id: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.accountId, account.id));
  if (existing.length >= MAX_PASSKEYS) throw new ApiError(409, `An account holds at most ${MAX_PASSKEYS} passkeys`);
  const options = await generateRegistrationOptions({
    rpName: "Storefront Apps",
    rpID,
    userName: account.email,
    userDisplayName: account.name,
    userID: new TextEncoder().encode(account.id),
    attestationType: "none",
    excludeCredentials: existing.map((c) => ({ id: c.id, transports: c.transports })),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  const challengeId = await createChallenge(db, {
    purpose: "PASSKEY_REGISTER",
    accountId: account.id,
    challenge: options.challenge,
  });
  return { options, challengeId };
}

/** Registration, step two: the browser's answer checked against the challenge (once); the passkey stored under `name`. */
export async function registerPasskey(
  db: Database,
  env: Env,
  by: FactorActor,
  input: { challengeId: unknown; response: unknown; name: string },
) {
  const challenge = await takeChallenge(db, input.challengeId, "PASSKEY_REGISTER");
  if (!challenge || challenge.accountId !== by.account.id)
    throw new ApiError(400, "The passkey request expired; try again");
  const { rpID, origin } = rpOf(env);
  const verification = await verifyRegistrationResponse({
    response: input.response as RegistrationResponseJSON,
    expectedChallenge: challenge.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: false,
  }).catch(() => ({ verified: false as const }));
  if (!verification.verified) throw new ApiError(400, "The passkey could not be verified");
  const { credential } = verification.registrationInfo;
  const name = input.name.trim().slice(0, 60) || "Passkey";
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(passkeys)
      .values({
        id: newId("pkey"),
        accountId: by.account.id,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString("base64url"),
        counter: credential.counter,
        transports: credential.transports ?? [],
        name,
        createdAt: now(),
      })
      .onConflictDoNothing({ target: passkeys.credentialId })
      .returning({ id: passkeys.id });
    if (!row) throw new ApiError(409, "This passkey is already registered");
    await refreshSecondFactor(tx, by.account.id);
    await logPasskey(tx, by, "added", name);
    return row;
  });
}

async function logPasskey(tx: Db, by: FactorActor, what: "added" | "removed", name: string) {
  await recordActivity(tx, {
    businessId: by.account.businessId,
    accountId: by.account.id,
    actor: accountActor(by.account),
    action: what === "added" ? "account.passkey_added" : "account.passkey_removed",
    target: { type: "account", id: by.account.id },
    ip: by.ip,
    details: { name },
  });
  await queueSecurityNotice(tx, by.account, {
    event: "second_factor",
    change: what === "added" ? "passkey_added" : "passkey_removed",
    sessionId: by.sessionId,
    detail: name,
  });
}

export async function renamePasskey(db: Db, accountId: string, id: string, name: string) {
  const clean = name.trim().slice(0, 60);
  if (!clean) throw new ApiError(400, "name: is required");
  const [row] = await db
    .update(passkeys)
    .set({ name: clean })
    .where(and(eq(passkeys.id, id), eq(passkeys.accountId, accountId)))
    .returning({ id: passkeys.id });
  if (!row) throw new ApiError(404, "Passkey not found");
}

export async function removePasskey(db: Database, by: FactorActor, id: string) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.accountId, by.account.id)))
      .returning({ name: passkeys.name });
    if (!row) throw new ApiError(404, "Passkey not found");
    await refreshSecondFactor(tx, by.account.id);
    await logPasskey(tx, by, "removed", row.name);
  });
}

/**
 * Sign-in, step one: options for `navigator.credentials.get`. Without an account, any passkey of
 * this platform may answer (discoverable, the e-mail field's autofill); with one (the pending second
 * step), only that account's.
 */
export async function passkeySignInOptions(db: Db, env: Env, accountId: string | null) {
  const { rpID } = rpOf(env);
  const allow = accountId
    ? await db
        .select({ id: passkeys.credentialId, transports: passkeys.transports })
        .from(passkeys)
        .where(eq(passkeys.accountId, accountId))
    : [];
  const options = await generateAuthenticationOptions({
    rpID,
    allowCredentials: allow.map((c) => ({ id: c.id, transports: c.transports })),
    userVerification: accountId ? "preferred" : "required",
  });
  const challengeId = await createChallenge(db, {
    purpose: "PASSKEY_SIGN_IN",
    accountId,
    challenge: options.challenge,
  });
  return { options, challengeId };
}

/**
 * Sign-in, step two: the challenge taken (once), the credential found and its signature and counter
 * checked. A password-free sign-in needs user verification (the passkey is then both factors); the
 * account must be open, and, for a second step, be the pending one.
 */
export async function verifyPasskeySignIn(
  db: Database,
  env: Env,
  input: { challengeId: unknown; response: unknown },
): Promise<Account> {
  const refused = () => new ApiError(401, "This passkey could not sign you in");
  const challenge = await takeChallenge(db, input.challengeId, "PASSKEY_SIGN_IN");
  if (!challenge) throw new ApiError(400, "The passkey request expired; try again");
  const response = input.response as AuthenticationResponseJSON;
  if (typeof response?.id !== "string") throw refused();
  const [row] = await db
    .select({ passkey: passkeys, account: accounts })
    .from(passkeys)
    .innerJoin(accounts, eq(accounts.id, passkeys.accountId))
    .where(eq(passkeys.credentialId, response.id));
  if (!row || row.account.closedAt || (challenge.accountId && challenge.accountId !== row.account.id)) throw refused();
  const { rpID, origin } = rpOf(env);
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential: {
      id: row.passkey.credentialId,
      publicKey: new Uint8Array(Buffer.from(row.passkey.publicKey, "base64url")),
      counter: row.passkey.counter,
      transports: row.passkey.transports as AuthenticatorTransport[],
    },
    requireUserVerification: !challenge.accountId,
  }).catch(() => null);
  if (!verification?.verified) throw refused();
  // a counter that does not move forward (when the authenticator keeps one) is a cloned key
  const next = verification.authenticationInfo.newCounter;
  const [moved] = await db
    .update(passkeys)
    .set({ counter: next, lastUsedAt: now() })
    .where(and(eq(passkeys.id, row.passkey.id), sql`(${passkeys.counter} < ${next} or ${next} = 0)`))
    .returning({ id: passkeys.id });
  if (!moved) throw refused();
  return row.account;
}

/** The browser's WebAuthn answer posted in the form's `response` field, as JSON (400 when it is not). */
export function browserAnswer(form: FormData): unknown {
  try {
    return JSON.parse(String(form.get("response") ?? ""));
  } catch {
    throw new ApiError(400, "response: must be the browser's answer");
  }
}
