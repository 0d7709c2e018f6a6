/**
 * Accounts, businesses and sandbox provisioning (contract section 1).
 */
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database, Db } from "../../../db/client";
import { accounts, businesses, pages, signInAttempts, type Account, type Business } from "../../../db/schema";
import { uniqueViolation } from "../../../db/sql";
import { ApiError } from "../core/http.server";
import { newId, randomToken } from "../core/ids.server";
import { now } from "../core/clock.server";
import { DUMMY_PASSWORD_HASH, hashPassword, signJwt, verifyPassword } from "../core/crypto.server";
import { defaultHomePage, seedBusinessCatalog } from "../catalog/demo-data.server";

export type Role = Account["role"];
export type PublicAccount = { id: string; email: string; name: string; role: Role };

export const registerSchema = z
  .object({
    email: z.string().trim().toLowerCase().email("must be an e-mail address").max(254),
    password: z.string().min(8, "must be at least 8 characters").max(200),
    name: z.string().trim().min(1, "is required").max(100),
    role: z.enum(["DEVELOPER", "MERCHANT", "REVIEWER"], { message: "must be DEVELOPER or MERCHANT" }),
    businessName: z.string().trim().min(1).max(100).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.role === "REVIEWER") ctx.addIssue({ code: "custom", path: ["role"], message: "REVIEWER accounts cannot self-register" });
    if (v.role === "MERCHANT" && !v.businessName) ctx.addIssue({ code: "custom", path: ["businessName"], message: "is required for a MERCHANT" });
  });

export const loginSchema = z.object({
  email: z.string().trim().toLowerCase().max(254),
  password: z.string().max(200),
});

export const publicAccount = (a: Account): PublicAccount => ({ id: a.id, email: a.email, name: a.name, role: a.role });

const slugify = (s: string) =>
  s.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 40) || "shop";

/**
 * Inserts a business under a slug nobody else holds, without failing the transaction: the name's
 * slug, else the next free number after it, else a random suffix; each try is an
 * `insert … on conflict do nothing`, so a slug taken by a concurrent sign-up (even one not yet
 * committed: the insert waits for it) moves on to the next candidate instead of aborting.
 */
async function insertWithFreeSlug(db: Db, name: string, values: Omit<typeof businesses.$inferInsert, "slug">): Promise<Business> {
  const base = slugify(name);
  const candidates = async (attempt: number): Promise<string> => {
    if (attempt === 0) return base;
    if (attempt === 1) {
      const taken = new Set((await db.execute<{ slug: string }>(sql`select slug from businesses where slug = ${base} or slug like ${base + "-%"}`)).map((r) => r.slug));
      for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
    }
    return `${base}-${randomToken(4).toLowerCase().replace(/[^a-z0-9]/g, "0")}`;
  };
  for (let attempt = 0; attempt < 10; attempt++) {
    const [row] = await db.insert(businesses).values({ ...values, slug: await candidates(attempt) }).onConflictDoNothing({ target: businesses.slug }).returning();
    if (row) return row;
  }
  throw new Error(`no free business slug for ${base} after 10 attempts`);
}

/** Creates a business; a sandbox is filled with the demo catalogue, a shop starts with a home page. */
export async function createBusiness(db: Db, input: { name: string; isSandbox: boolean; withDemoData?: boolean }): Promise<Business> {
  const t = now();
  const business = await insertWithFreeSlug(db, input.name, { id: newId("biz"), name: input.name, isSandbox: input.isSandbox, createdAt: t, updatedAt: t });
  if (input.isSandbox || input.withDemoData) {
    await seedBusinessCatalog(db, business);
  } else {
    await db.insert(pages).values({ id: newId("pg"), businessId: business.id, slug: "home", title: "Home", blocks: defaultHomePage(business.name), createdAt: t, updatedAt: t });
  }
  return business;
}

export async function createAccount(
  db: Database,
  input: { email: string; password: string; name: string; role: Role; businessName?: string; withDemoData?: boolean },
): Promise<{ account: Account; business: Business | null }> {
  const passwordHash = await hashPassword(input.password);
  const email = input.email.trim().toLowerCase();
  try {
    return await db.transaction(async (tx) => {
      const existing = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, email));
      if (existing.length) throw new ApiError(409, "An account with this email already exists");
      let business: Business | null = null;
      if (input.role === "DEVELOPER") business = await createBusiness(tx, { name: `${input.name}'s sandbox`, isSandbox: true });
      if (input.role === "MERCHANT") business = await createBusiness(tx, { name: input.businessName!, isSandbox: false, withDemoData: input.withDemoData });
      const [account] = await tx
        .insert(accounts)
        .values({ id: newId("acct"), email, name: input.name, role: input.role, passwordHash, businessId: business?.id ?? null, createdAt: now() })
        .returning();
      return { account, business };
    });
  } catch (e) {
    // only the e-mail is the user's to collide on (a concurrent sign-up with the same address); the
    // business slug never collides (insertWithFreeSlug), and any other violation is not theirs to see
    if (uniqueViolation(e) === "accounts_email_key") throw new ApiError(409, "An account with this email already exists");
    throw e;
  }
}

export function issueAccountToken(account: Account, secret: string): Promise<string> {
  return signJwt({ sub: account.id, role: account.role, businessId: account.businessId }, secret, 24 * 3600, Math.floor(now().getTime() / 1000));
}

const THROTTLE_WINDOW_MS = 15 * 60_000;
/** failures allowed per window: per account, and per client address (many people share one) */
const THROTTLE_LIMITS = { email: 10, ip: 50 };

function throttleWindow() {
  const t = now().getTime();
  return new Date(t - (t % THROTTLE_WINDOW_MS));
}

async function isThrottled(db: Db, keys: string[]): Promise<boolean> {
  const rows = await db
    .select({ key: signInAttempts.key, failures: signInAttempts.failures })
    .from(signInAttempts)
    .where(and(sql`${signInAttempts.key} in ${keys}`, eq(signInAttempts.windowStart, throttleWindow())));
  return rows.some((r) => r.failures >= (r.key.startsWith("ip:") ? THROTTLE_LIMITS.ip : THROTTLE_LIMITS.email));
}

async function recordFailure(db: Db, keys: string[]) {
  const windowStart = throttleWindow();
  for (const key of keys)
    await db
      .insert(signInAttempts)
      .values({ key, windowStart, failures: 1 })
      .onConflictDoUpdate({ target: [signInAttempts.key, signInAttempts.windowStart], set: { failures: sql`${signInAttempts.failures} + 1` } });
}

/**
 * Checks e-mail and password. One message for both kinds of failure; after 10 failures in 15
 * minutes for the same account (50 for the same client address), sign-in answers 429.
 */
export async function authenticate(db: Database, input: { email: string; password: string }, clientAddress: string): Promise<Account> {
  const email = input.email.trim().toLowerCase();
  const keys = [`email:${email}`, `ip:${clientAddress}`];
  if (await isThrottled(db, keys)) {
    const retry = Math.max(1, Math.ceil((throttleWindow().getTime() + THROTTLE_WINDOW_MS - now().getTime()) / 1000));
    throw new ApiError(429, "Too many failed sign-in attempts; try again later", { "Retry-After": String(retry) });
  }
  const [account] = await db.select().from(accounts).where(eq(accounts.email, email));
  const ok = await verifyPassword(input.password, account?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!account || !ok) {
    await recordFailure(db, keys);
    throw new ApiError(401, "Invalid email or password");
  }
  return account;
}

export async function getAccount(db: Db, id: string): Promise<Account | undefined> {
  const [account] = await db.select().from(accounts).where(eq(accounts.id, id));
  return account;
}

export async function getBusiness(db: Db, id: string): Promise<Business | undefined> {
  const [business] = await db.select().from(businesses).where(eq(businesses.id, id));
  return business;
}
