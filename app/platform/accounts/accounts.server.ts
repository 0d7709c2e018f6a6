/**
 * Accounts, businesses and sandbox provisioning (contract section 1).
 */
import { and, eq, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database, Db } from "../../../db/client";
import {
  accounts,
  businesses,
  pages,
  signInAttempts,
  signInDelays,
  signInKnownAddresses,
  type Account,
  type Business,
} from "../../../db/schema";
import { perDatabase, uniqueViolation } from "../../../db/sql";
import { ApiError } from "../core/http.server";
import { newId, randomToken } from "../core/ids.server";
import { now } from "../core/clock.server";
import { DUMMY_PASSWORD_HASH, hashPassword, sha256, signJwt, verifyPassword } from "../core/crypto.server";
import { COMMON_PASSWORD_MESSAGE, MIN_PASSWORD_LENGTH, isCommonPassword, passwordProblem } from "./passwords.server";
import { accountActor, recordActivity } from "../activity/activity.server";
import { defaultHomePage, seedBusinessCatalog } from "./starter-catalog.server";

export type Role = Account["role"];
export type PublicAccount = { id: string; email: string; name: string; role: Role; emailVerified: boolean };

export const registerSchema = z
  .object({
    email: z.string().trim().toLowerCase().email("must be an e-mail address").max(254),
    password: z
      .string()
      .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
      .max(200)
      .refine((p) => !isCommonPassword(p), COMMON_PASSWORD_MESSAGE),
    name: z.string().trim().min(1, "is required").max(100),
    role: z.enum(["DEVELOPER", "MERCHANT", "REVIEWER"], { message: "must be DEVELOPER or MERCHANT" }),
    businessName: z.string().trim().min(1).max(100).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.role === "REVIEWER")
      ctx.addIssue({ code: "custom", path: ["role"], message: "REVIEWER accounts cannot self-register" });
    if (v.role === "MERCHANT" && !v.businessName)
      ctx.addIssue({ code: "custom", path: ["businessName"], message: "is required for a MERCHANT" });
  });

export const loginSchema = z.object({
  email: z.string().trim().toLowerCase().max(254),
  password: z.string().max(200),
  /** the second factor's code (contract 18): a TOTP code or a recovery code */
  otp: z.string().max(64).optional(),
});

export const publicAccount = (a: Account): PublicAccount => ({
  id: a.id,
  email: a.email,
  name: a.name,
  role: a.role,
  emailVerified: a.emailVerifiedAt !== null,
});

const slugify = (s: string) =>
  s
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 40) || "shop";

/**
 * Inserts a business under a slug nobody else holds, without failing the transaction: the name's
 * slug, else the next free number after it, else a random suffix; each try is an
 * `insert … on conflict do nothing`, so a slug taken by a concurrent sign-up (even one not yet
 * committed: the insert waits for it) moves on to the next candidate instead of aborting.
 */
async function insertWithFreeSlug(
  db: Db,
  name: string,
  values: Omit<typeof businesses.$inferInsert, "slug">,
): Promise<Business> {
  const base = slugify(name);
  const candidates = async (attempt: number): Promise<string> => {
    if (attempt === 0) return base;
    if (attempt === 1) {
      const taken = new Set(
        (
          await db.execute<{ slug: string }>(
            sql`select slug from businesses where slug = ${base} or slug like ${base + "-%"}`,
          )
        ).map((r) => r.slug),
      );
      for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
    }
    return `${base}-${randomToken(4)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "0")}`;
  };
  for (let attempt = 0; attempt < 10; attempt++) {
    const [row] = await db
      .insert(businesses)
      .values({ ...values, slug: await candidates(attempt) })
      .onConflictDoNothing({ target: businesses.slug })
      .returning();
    if (row) return row;
  }
  throw new Error(`no free business slug for ${base} after 10 attempts`);
}

/** Creates a business; a sandbox is filled with the demo catalogue, a shop starts with a home page. */
export async function createBusiness(
  db: Db,
  input: { name: string; isSandbox: boolean; withDemoData?: boolean },
): Promise<Business> {
  const t = now();
  const business = await insertWithFreeSlug(db, input.name, {
    id: newId("biz"),
    name: input.name,
    isSandbox: input.isSandbox,
    // the demo catalogue is a restaurant's menu; any other shop starts as a shop of products (decision 061)
    type: input.isSandbox || input.withDemoData ? "RESTAURANT" : "RETAIL",
    createdAt: t,
    updatedAt: t,
  });
  if (input.isSandbox || input.withDemoData) {
    await seedBusinessCatalog(db, business);
  } else {
    await db.insert(pages).values({
      id: newId("pg"),
      businessId: business.id,
      slug: "home",
      title: "Home",
      blocks: defaultHomePage(business.name, business.type),
      createdAt: t,
      updatedAt: t,
    });
  }
  return business;
}

export async function createAccount(
  db: Database,
  input: { email: string; password: string; name: string; role: Role; businessName?: string; withDemoData?: boolean },
  options: {
    /**
     * Registration (contract 16): the account starts unverified and, in the same transaction, is sent
     * a verification link (`afterInsert`, mail/account-mail.server.ts). Without it (reviewer:create,
     * the demo data) the address counts as verified by whoever made the account.
     */
    afterInsert?: (tx: Db, account: Account) => Promise<void>;
  } = {},
): Promise<{ account: Account; business: Business | null }> {
  // the same rules as registerSchema, for the callers that do not go through it (reviewer:create, seeds)
  const problem = passwordProblem(input.password);
  if (problem) throw new ApiError(400, `password: ${problem}`);
  const passwordHash = await hashPassword(input.password);
  const email = input.email.trim().toLowerCase();
  try {
    return await db.transaction(async (tx) => {
      const existing = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, email));
      if (existing.length) throw new ApiError(409, "An account with this email already exists");
      let business: Business | null = null;
      if (input.role === "DEVELOPER")
        business = await createBusiness(tx, { name: `${input.name}'s sandbox`, isSandbox: true });
      if (input.role === "MERCHANT")
        business = await createBusiness(tx, {
          name: input.businessName!,
          isSandbox: false,
          withDemoData: input.withDemoData,
        });
      const [account] = await tx
        .insert(accounts)
        .values({
          id: newId("acct"),
          email,
          name: input.name,
          role: input.role,
          passwordHash,
          businessId: business?.id ?? null,
          emailVerifiedAt: options.afterInsert ? null : now(),
          createdAt: now(),
        })
        .returning();
      await options.afterInsert?.(tx, account);
      return { account, business };
    });
  } catch (e) {
    // only the e-mail is the user's to collide on (a concurrent sign-up with the same address); the
    // business slug never collides (insertWithFreeSlug), and any other violation is not theirs to see
    if (uniqueViolation(e) === "accounts_email_key")
      throw new ApiError(409, "An account with this email already exists");
    throw e;
  }
}

/**
 * The audience of the platform's own account tokens. Other tokens signed with a key derived from the
 * session secret (or, by mistake, with the secret itself) name another audience, so none of them is
 * ever taken for an account's bearer token.
 */
export const ACCOUNT_TOKEN_AUDIENCE = "platform-account-api";

/** An account's JWT for the session `sessionId` (its `sid` claim, contract 18): ending the session ends the token. */
export function issueAccountToken(account: Account, secret: string, sessionId: string): Promise<string> {
  return signJwt(
    {
      sub: account.id,
      sid: sessionId,
      aud: ACCOUNT_TOKEN_AUDIENCE,
      role: account.role,
      businessId: account.businessId,
      // the account's credentials version: a password reset bumps it and every older token answers 401
      cv: account.credentialsVersion,
    },
    secret,
    24 * 3600,
    Math.floor(now().getTime() / 1000),
  );
}

/**
 * Sign-in throttling (docs/security.md, "Sign-in"), three budgets, counted in PostgreSQL so that every
 * server process shares them, each with its own answer and Retry-After:
 * - per account and address: after 3 failures, growing delays (1 s, 2 s, 4 s … 15 min) for that pair
 *   only; a success from the pair ends them. The owner signing in from elsewhere is not affected.
 * - per account, across addresses: 100 failures an hour, after which the account is closed to sign-in
 *   for the rest of the hour — except from addresses it has signed in from before, so a spray from
 *   elsewhere cannot lock the owner out of their usual place.
 * - per address, across accounts: 50 failures in 15 minutes (one address guessing many accounts).
 *
 * An attempt takes its place in every budget before the password is checked (one short transaction of
 * atomic upserts, see reserveAttempt), so a burst of concurrent guesses gets no more tries than the
 * same guesses one after another; a success gives the places back.
 */
export const THROTTLE = {
  pairFreeFailures: 3,
  pairMaxDelayS: 15 * 60,
  pairForgetAfterMs: 24 * 3600_000,
  accountWindowMs: 3600_000,
  accountFailures: 100,
  addressWindowMs: 15 * 60_000,
  addressFailures: 50,
};

const windowOf = (ms: number, t: Date) => new Date(t.getTime() - (t.getTime() % ms));
const secondsUntil = (t: Date) => String(Math.max(1, Math.ceil((t.getTime() - now().getTime()) / 1000)));
const knownAddressHash = (accountId: string, address: string) => sha256(`${accountId}|${address}`);
const pairKey = (email: string, address: string) => `pair:${email}|${address}`;
const tooMany = (retryAfter: string) =>
  new ApiError(429, "Too many failed sign-in attempts; try again later", { "Retry-After": retryAfter });

/** The windows an attempt was counted in, to give its places back if it succeeds. */
type Reservation = { addressWindow: Date; accountWindow: Date };

/**
 * Counts this attempt as a failure in all three budgets, or answers 429 (with Retry-After) and counts
 * nothing when a budget is spent. One transaction of upserts, each taking the row's lock and reading
 * the count it wrote, so concurrent attempts are counted exactly and the n-th one sees n: no
 * read-then-write. Rows are locked in one order (pair, address, account), so two attempts never deadlock.
 */
async function reserveAttempt(
  db: Database,
  email: string,
  address: string,
  account: Account | undefined,
): Promise<Reservation> {
  const t = now();
  const at = t.toISOString();
  const addressWindow = windowOf(THROTTLE.addressWindowMs, t);
  const accountWindow = windowOf(THROTTLE.accountWindowMs, t);
  const known =
    account !== undefined &&
    (
      await db
        .select({ hash: signInKnownAddresses.hash })
        .from(signInKnownAddresses)
        .where(eq(signInKnownAddresses.hash, knownAddressHash(account.id, address)))
    ).length > 0;

  await db.transaction(async (tx) => {
    // (1) the pair: free while its delay (if any) is over. The n-th attempt (n >= 3) starts a delay of
    // 2^(n-3) s (capped) at once, so the next attempt waits whether or not this one has finished.
    // A day without attempts starts the count afresh. Exponent capped before power(): no overflow.
    const count = sql`case when ${signInDelays.lastFailureAt} < ${new Date(t.getTime() - THROTTLE.pairForgetAfterMs).toISOString()}::timestamptz then 1 else ${signInDelays.failures} + 1 end`;
    const [claimed] = await tx
      .insert(signInDelays)
      .values({ key: pairKey(email, address), failures: 1, lastFailureAt: t, lockedUntil: null })
      .onConflictDoUpdate({
        target: signInDelays.key,
        set: {
          failures: count,
          lastFailureAt: t,
          lockedUntil: sql`case when ${count} >= ${THROTTLE.pairFreeFailures}::int
            then ${at}::timestamptz + least(power(2, least(${count} - ${THROTTLE.pairFreeFailures}::int, 30)), ${THROTTLE.pairMaxDelayS}::int) * interval '1 second' end`,
        },
        setWhere: sql`${signInDelays.lockedUntil} is null or ${signInDelays.lockedUntil} <= ${at}::timestamptz`,
      })
      .returning({ failures: signInDelays.failures });
    if (!claimed) {
      const [row] = await tx
        .select({ lockedUntil: signInDelays.lockedUntil })
        .from(signInDelays)
        .where(eq(signInDelays.key, pairKey(email, address)));
      throw tooMany(row?.lockedUntil ? secondsUntil(row.lockedUntil) : "1");
    }
    // (2) the address, across accounts; (3) the account, across addresses (known addresses exempt)
    const bump = async (key: string, windowStart: Date) => {
      const [row] = await tx
        .insert(signInAttempts)
        .values({ key, windowStart, failures: 1 })
        .onConflictDoUpdate({
          target: [signInAttempts.key, signInAttempts.windowStart],
          set: { failures: sql`${signInAttempts.failures} + 1` },
        })
        .returning({ failures: signInAttempts.failures });
      return row.failures;
    };
    if ((await bump(`ip:${address}`, addressWindow)) > THROTTLE.addressFailures)
      throw tooMany(secondsUntil(new Date(addressWindow.getTime() + THROTTLE.addressWindowMs)));
    if ((await bump(`email:${email}`, accountWindow)) > THROTTLE.accountFailures && !known)
      throw tooMany(secondsUntil(new Date(accountWindow.getTime() + THROTTLE.accountWindowMs)));
  });
  return { addressWindow, accountWindow };
}

/** A success: its places in the windows are given back, the pair's delays end, and the address becomes one the account is known from. */
async function recordSuccess(db: Database, account: Account, email: string, address: string, r: Reservation) {
  await releaseAttempt(db, email, address, r);
  await db.delete(signInDelays).where(eq(signInDelays.key, pairKey(email, address)));
  await db
    .insert(signInKnownAddresses)
    .values({ hash: knownAddressHash(account.id, address), lastSeenAt: now() })
    .onConflictDoUpdate({ target: signInKnownAddresses.hash, set: { lastSeenAt: now() } });
}

/**
 * A right password of an account with a second factor: this attempt's own counts are given back,
 * but the pair's delays stay and the address does not become a known one until the second step
 * passes (`throttledCheck`), so each wrong code counts as one failed attempt.
 */
async function releaseAttempt(db: Database, email: string, address: string, r: Reservation) {
  await db
    .update(signInAttempts)
    .set({ failures: sql`greatest(${signInAttempts.failures} - 1, 0)` })
    .where(
      or(
        and(eq(signInAttempts.key, `ip:${address}`), eq(signInAttempts.windowStart, r.addressWindow)),
        and(eq(signInAttempts.key, `email:${email}`), eq(signInAttempts.windowStart, r.accountWindow)),
      ),
    );
  await db
    .update(signInDelays)
    .set({ failures: sql`greatest(${signInDelays.failures} - 1, 0)` })
    .where(eq(signInDelays.key, pairKey(email, address)));
}

/**
 * Checks e-mail and password. One message for both kinds of failure (401); the budgets above answer
 * 429 with Retry-After. The attempt is counted as a failure before the password is checked, and
 * uncounted if it was right.
 */
export async function authenticate(
  db: Database,
  input: { email: string; password: string },
  clientAddress: string,
): Promise<Account> {
  const email = input.email.trim().toLowerCase();
  const [account] = await db.select().from(accounts).where(eq(accounts.email, email));
  const reservation = await reserveAttempt(db, email, clientAddress, account);
  const ok = await verifyPassword(input.password, account?.passwordHash ?? DUMMY_PASSWORD_HASH);
  // a removed staff member's account is closed (decision 069): the same answer as a wrong password
  if (!account || !ok || account.closedAt) {
    if (account && !account.closedAt) await recordSignInFailed(db, account, clientAddress, "wrong password");
    throw new ApiError(401, "Invalid email or password");
  }
  // with a second factor the password is half of it: the places are given back only when the code
  // (or passkey) passes too (throttledCheck), so wrong codes after a right password keep counting
  if (account.hasSecondFactor) await releaseAttempt(db, email, clientAddress, reservation);
  else await recordSuccess(db, account, email, clientAddress, reservation);
  const [signedIn] = await db
    .update(accounts)
    .set({ lastSignInAt: now() })
    .where(eq(accounts.id, account.id))
    .returning();
  return signedIn ?? account;
}

/**
 * A second-step code checked under the same budgets as a password (contract 18: wrong codes are
 * throttled like passwords): the attempt takes its places first (429 when a budget is spent) and
 * gives them back only when `check` says the code was right.
 */
export async function throttledCheck(
  db: Database,
  account: Account,
  address: string,
  check: () => Promise<boolean>,
): Promise<boolean> {
  const reservation = await reserveAttempt(db, account.email, address, account);
  const ok = await check();
  if (ok) await recordSuccess(db, account, account.email, address, reservation);
  return ok;
}

export async function getAccount(db: Db, id: string): Promise<Account | undefined> {
  const [account] = await db.select().from(accounts).where(eq(accounts.id, id));
  return account;
}

/** Read by every signed-in request (the guards): built once per database handle. */
const businessById = perDatabase((db: Db) =>
  db
    .select()
    .from(businesses)
    .where(eq(businesses.id, sql.placeholder("id")))
    .prepare("business_by_id"),
);

export async function getBusiness(db: Db, id: string): Promise<Business | undefined> {
  const [business] = await businessById(db).execute({ id });
  return business;
}

/** A failed sign-in of a known account in its activity log (contract 18): why, and from where. */
export function recordSignInFailed(db: Database, account: Account, ip: string, reason: string) {
  return recordActivity(db, {
    businessId: account.businessId,
    accountId: account.id,
    actor: accountActor(account),
    action: "account.sign_in_failed",
    target: { type: "account", id: account.id },
    ip,
    details: { reason },
  });
}
