/**
 * Second factors, part one (contract 18, decision 072): TOTP (RFC 6238 through `otpauth`: SHA-1, 6
 * digits, 30 s steps, one step of drift, each code accepted once by keeping the last accepted step)
 * and 10 single-use recovery codes (their SHA-256 only). The secret is sealed with ENCRYPTION_KEY
 * like the platform's other secrets. `accounts.has_second_factor` follows every change, so the
 * guards know it from the account's row.
 */
import { randomBytes } from "node:crypto";
import { and, count, eq, isNotNull, isNull, sql } from "drizzle-orm";
import * as OTPAuth from "otpauth";
import QRCode from "qrcode";
import type { Database, Db } from "../../../db/client";
import { accounts, passkeys, recoveryCodes, totpFactors, type Account } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { ApiError } from "../core/http.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { decrypt, encrypt, sha256 } from "../core/crypto.server";
import { accountActor, recordActivity, type ActivityAction } from "../activity/activity.server";
import { queueSecurityNotice, type SecurityNotice } from "../mail/security-mail.server";

export const TOTP = { digits: 6, period: 30, window: 1, algorithm: "SHA1" } as const;
export const RECOVERY_CODE_COUNT = 10;

/** Who is changing their factors: the account, the session doing it, the address. */
export type FactorActor = { account: Account; sessionId: string | null; ip: string };

const totpOf = (env: Pick<Env, "publicUrl">, email: string, secretBase32: string) =>
  new OTPAuth.TOTP({
    issuer: `Storefront Apps (${new URL(env.publicUrl).host})`,
    label: email,
    algorithm: TOTP.algorithm,
    digits: TOTP.digits,
    period: TOTP.period,
    secret: OTPAuth.Secret.fromBase32(secretBase32),
  });

/** Recomputes the account's "has a second factor" flag from its confirmed TOTP and passkeys. */
export async function refreshSecondFactor(tx: Db, accountId: string): Promise<boolean> {
  const [row] = await tx
    .update(accounts)
    .set({
      hasSecondFactor: sql`exists (select 1 from ${totpFactors} where ${totpFactors.accountId} = ${accountId} and ${totpFactors.confirmedAt} is not null)
        or exists (select 1 from ${passkeys} where ${passkeys.accountId} = ${accountId})`,
    })
    .where(eq(accounts.id, accountId))
    .returning({ has: accounts.hasSecondFactor });
  return row?.has ?? false;
}

/** A change of factors: its activity entry and its notice, in the change's transaction. */
async function logChange(
  tx: Db,
  by: FactorActor,
  action: ActivityAction,
  change: Extract<SecurityNotice, { event: "second_factor" }>["change"],
  detail = "",
) {
  await recordActivity(tx, {
    businessId: by.account.businessId,
    accountId: by.account.id,
    actor: accountActor(by.account),
    action,
    target: { type: "account", id: by.account.id },
    ip: by.ip,
    details: detail ? { detail } : {},
  });
  await queueSecurityNotice(tx, by.account, { event: "second_factor", change, sessionId: by.sessionId, detail });
}

/**
 * `POST /auth/mfa/totp`: a new secret waiting for its first code (a second call replaces a waiting
 * one; an account with a confirmed TOTP must remove it first: 409).
 */
export async function beginTotp(db: Db, env: Env, account: Account) {
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  await db.transaction(async (tx) => {
    const [existing] = await tx.select().from(totpFactors).where(eq(totpFactors.accountId, account.id)).for("update");
    if (existing?.confirmedAt) throw new ApiError(409, "An authenticator app is already set up; remove it first");
    const values = {
      secretEnc: encrypt(secret, env.encryptionKey),
      confirmedAt: null,
      lastUsedStep: 0,
      createdAt: now(),
    };
    await tx
      .insert(totpFactors)
      .values({ accountId: account.id, ...values })
      .onConflictDoUpdate({ target: totpFactors.accountId, set: values });
  });
  return { secret, otpauthUrl: totpOf(env, account.email, secret).toString() };
}

/** The QR code of an otpauth URL, drawn here as an SVG (no third-party service sees the secret). */
export const qrSvg = (otpauthUrl: string) =>
  QRCode.toString(otpauthUrl, { type: "svg", errorCorrectionLevel: "M", margin: 2, width: 200 });

/**
 * Checks a TOTP code against the account's secret and, when it is right, takes its time step: one
 * conditional update, so the same code (or an older one) is accepted once, even by two requests at
 * the same moment. `confirmed`: only a confirmed secret (sign-in) or only a waiting one (enrolment).
 */
async function takeTotpCode(db: Db, env: Env, accountId: string, code: string, confirmed: boolean): Promise<boolean> {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return false;
  const [row] = await db
    .select()
    .from(totpFactors)
    .where(
      and(
        eq(totpFactors.accountId, accountId),
        confirmed ? isNotNull(totpFactors.confirmedAt) : isNull(totpFactors.confirmedAt),
      ),
    );
  if (!row) return false;
  const totp = totpOf(env, "", decrypt(row.secretEnc, env.encryptionKey));
  const timestamp = now().getTime();
  const delta = totp.validate({ token, timestamp, window: TOTP.window });
  if (delta === null) return false;
  const step = Math.floor(timestamp / 1000 / TOTP.period) + delta;
  const [taken] = await db
    .update(totpFactors)
    .set({ lastUsedStep: step })
    .where(and(eq(totpFactors.accountId, accountId), sql`${totpFactors.lastUsedStep} < ${step}`))
    .returning({ step: totpFactors.lastUsedStep });
  return taken !== undefined;
}

const newRecoveryCode = () => {
  const raw = randomBytes(8).toString("hex"); // 16 hex digits, shown as xxxx-xxxx-xxxx-xxxx
  return raw.match(/.{4}/g)!.join("-");
};
const recoveryHash = (code: string) => sha256(`recovery:${code.toLowerCase().replace(/[^0-9a-f]/g, "")}`);

async function replaceRecoveryCodes(tx: Db, accountId: string): Promise<string[]> {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.accountId, accountId));
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx
    .insert(recoveryCodes)
    .values(codes.map((c) => ({ id: newId("rc"), accountId, codeHash: recoveryHash(c), createdAt: now() })));
  return codes;
}

/** `POST /auth/mfa/totp/confirm {code}`: the first code confirms the secret; answers the 10 recovery codes (shown once). */
export async function confirmTotp(db: Database, env: Env, by: FactorActor, code: string): Promise<string[]> {
  return db.transaction(async (tx) => {
    if (!(await takeTotpCode(tx, env, by.account.id, code, false)))
      throw new ApiError(400, "code: this code is not right; check your authenticator app's clock and try again");
    await tx.update(totpFactors).set({ confirmedAt: now() }).where(eq(totpFactors.accountId, by.account.id));
    await refreshSecondFactor(tx, by.account.id);
    const codes = await replaceRecoveryCodes(tx, by.account.id);
    await logChange(tx, by, "account.totp_enrolled", "totp_enrolled");
    return codes;
  });
}

/**
 * Whether `code` is a right second-factor code of the account: a TOTP code (taken once) or an unused
 * recovery code (used up). A recovery code's use is logged and noticed.
 */
export async function takeSecondFactorCode(db: Database, env: Env, by: FactorActor, code: string): Promise<boolean> {
  const given = code.trim();
  if (/^\d{3}\s?\d{3}$/.test(given)) return takeTotpCode(db, env, by.account.id, given, true);
  if (!/^[0-9a-fA-F-\s]{16,24}$/.test(given)) return false;
  return db.transaction(async (tx) => {
    const [used] = await tx
      .update(recoveryCodes)
      .set({ usedAt: now() })
      .where(
        and(
          eq(recoveryCodes.accountId, by.account.id),
          eq(recoveryCodes.codeHash, recoveryHash(given)),
          isNull(recoveryCodes.usedAt),
        ),
      )
      .returning({ id: recoveryCodes.id });
    if (!used) return false;
    await logChange(tx, by, "account.recovery_code_used", "recovery_code_used");
    return true;
  });
}

/** `DELETE /auth/mfa/totp {code}`: removing the authenticator takes one of its codes (or a recovery code). */
export async function removeTotp(db: Database, env: Env, by: FactorActor, code: string): Promise<void> {
  const [row] = await db
    .select({ confirmedAt: totpFactors.confirmedAt })
    .from(totpFactors)
    .where(eq(totpFactors.accountId, by.account.id));
  if (!row?.confirmedAt) throw new ApiError(404, "No authenticator app is set up");
  if (!(await takeSecondFactorCode(db, env, by, code))) throw new ApiError(400, "code: this code is not right");
  await db.transaction(async (tx) => {
    await tx.delete(totpFactors).where(eq(totpFactors.accountId, by.account.id));
    const still = await refreshSecondFactor(tx, by.account.id);
    // recovery codes stand in for a second factor: none is left, none of them either
    if (!still) await tx.delete(recoveryCodes).where(eq(recoveryCodes.accountId, by.account.id));
    await logChange(tx, by, "account.totp_removed", "totp_removed");
  });
}

/** New recovery codes (the old ones stop working); only with a second factor. */
export async function regenerateRecoveryCodes(db: Database, by: FactorActor): Promise<string[]> {
  return db.transaction(async (tx) => {
    const [a] = await tx
      .select({ has: accounts.hasSecondFactor })
      .from(accounts)
      .where(eq(accounts.id, by.account.id))
      .for("update");
    if (!a?.has) throw new ApiError(409, "Set up an authenticator app or a passkey first");
    const codes = await replaceRecoveryCodes(tx, by.account.id);
    await logChange(tx, by, "account.recovery_codes_regenerated", "recovery_codes_regenerated");
    return codes;
  });
}

/** What the Security page shows of the factors. */
export async function factorsOf(db: Db, accountId: string) {
  const [totp] = await db
    .select({ confirmedAt: totpFactors.confirmedAt })
    .from(totpFactors)
    .where(eq(totpFactors.accountId, accountId));
  const [{ left }] = await db
    .select({ left: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.accountId, accountId), isNull(recoveryCodes.usedAt)));
  return { totp: totp?.confirmedAt ? { since: totp.confirmedAt.toISOString() } : null, recoveryCodesLeft: left };
}

/** A fresh TOTP secret (base32, 160 bits). */
export const newTotpSecret = () => new OTPAuth.Secret({ size: 20 }).base32;

/**
 * A TOTP set up at once with a known secret: `npm run reviewer:create` and the demo reviewer
 * (decision 072), whose secret the demo credentials print; the test set-ups' reviewers too.
 */
export async function enrolKnownTotp(db: Database, env: Env, accountId: string, secretBase32: string) {
  await db.transaction(async (tx) => {
    const values = { secretEnc: encrypt(secretBase32, env.encryptionKey), confirmedAt: now(), lastUsedStep: 0 };
    await tx
      .insert(totpFactors)
      .values({ accountId, ...values, createdAt: now() })
      .onConflictDoUpdate({ target: totpFactors.accountId, set: values });
    await refreshSecondFactor(tx, accountId);
  });
}

/** The waiting (unconfirmed) enrolment of the Security page: its secret, URL and QR code, or null. */
export async function pendingTotp(db: Db, env: Env, account: Account) {
  const [row] = await db
    .select()
    .from(totpFactors)
    .where(and(eq(totpFactors.accountId, account.id), isNull(totpFactors.confirmedAt)));
  if (!row) return null;
  const secret = decrypt(row.secretEnc, env.encryptionKey);
  const otpauthUrl = totpOf(env, account.email, secret).toString();
  return { secret, otpauthUrl, qr: await qrSvg(otpauthUrl) };
}
