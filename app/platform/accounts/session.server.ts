/**
 * Browser sessions (signed, httpOnly, SameSite=Lax cookie; Secure in production), CSRF tokens for
 * every form, and the one guard per kind of caller: requireUser for pages, requireApiAccount for
 * the JSON endpoints (Bearer JWT).
 */
import { randomBytes } from "node:crypto";
import { createCookieSessionStorage, redirect, type Session, type SessionStorage } from "@remix-run/node";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { perDatabase } from "../../../db/sql";
import { accounts, sessions, type Account, type Business } from "../../../db/schema";
import type { PlatformContext } from "../core/context";
import type { Env } from "../core/env.server";
import { ApiError } from "../core/http.server";
import { randomToken } from "../core/ids.server";
import { safeEqual, sha256, verifyJwt } from "../core/crypto.server";
import { enterBusinessClock, now } from "../core/clock.server";
import { ACCOUNT_TOKEN_AUDIENCE, getBusiness, type Role } from "./accounts.server";
import {
  BROWSER_SESSION_TTL_MS,
  LAST_SEEN_EVERY_MS,
  deviceOf,
  startSession,
  touchSession,
} from "./sign-in-sessions.server";
import { clientAddress } from "../core/client-address.server";
import { isStorefrontPath } from "../core/areas";
import { cookieNames } from "../core/cookies";
import { memberOf, type Member } from "./permissions";

const storages = new Map<string, SessionStorage>();

/**
 * The cookie of each origin (decision 013). The platform's `__session` (sign-in and CSRF token) is
 * host-only on PUBLIC_URL's host; the storefront's `__shop` holds only the shopper's CSRF token, on
 * STOREFRONT_URL's host, and only while the shopper has a cart (decision 021). Neither is ever set on
 * the other's host.
 */
function storageOf(env: Env, area: "platform" | "storefront"): SessionStorage {
  const key = `${area}:${env.sessionSecret}:${env.isProduction}`;
  let storage = storages.get(key);
  if (!storage) {
    storage = createCookieSessionStorage({
      cookie: {
        name: area === "platform" ? "__session" : "__shop",
        httpOnly: true,
        sameSite: "lax",
        secure: env.isProduction,
        path: area === "platform" ? "/" : "/s/",
        secrets: [env.sessionSecret],
        maxAge: 7 * 24 * 3600, // SESSION_TTL_MS
      },
    });
    storages.set(key, storage);
  }
  return storage;
}

/** The platform's session storage (sign-in). */
export const sessionStorage = (env: Env) => storageOf(env, "platform");

/** The storage of the request's origin: the storefront's own cookie on storefront pages, the platform's elsewhere. */
export const sessionStorageFor = (request: Request, env: Env) =>
  storageOf(env, isStorefrontPath(new URL(request.url).pathname) ? "storefront" : "platform");

export function getSession(request: Request, env: Env): Promise<Session> {
  return sessionStorageFor(request, env).getSession(request.headers.get("Cookie"));
}

/** The session's CSRF token, created when missing; commit the session when `created` is true. */
export function csrfTokenOf(session: Session): { token: string; created: boolean } {
  const existing = session.get("csrf");
  if (typeof existing === "string" && existing.length > 0) return { token: existing, created: false };
  const token = randomToken(24);
  session.set("csrf", token);
  return { token, created: true };
}

/** The storefront shopper's CSRF token: the one their `__shop` cookie holds, else "" (none is made on a page view, decision 021). */
export function shopperCsrfToken(session: Session): string {
  const token = session.get("csrf");
  return typeof token === "string" ? token : "";
}

/**
 * The storefront's `__shop` cookie follows the cart (decision 021): a shopper gets a token with their
 * first cart and loses it when no cart is left, so that a visitor without a cart holds no cookie of
 * the storefront and sees pages a shared cache may keep. The Set-Cookie header for that, or null
 * when nothing changes.
 */
export async function shopperSessionCookie(request: Request, env: Env, hasCart: boolean): Promise<string | null> {
  const storage = storageOf(env, "storefront");
  const cookie = request.headers.get("Cookie");
  const session = await storage.getSession(cookie);
  if (hasCart) {
    if (shopperCsrfToken(session)) return null;
    session.set("csrf", randomToken(24));
    return storage.commitSession(session);
  }
  return /(^|;)\s*__shop=/.test(cookie ?? "") ? storage.destroySession(session) : null;
}

/** A storefront token without a cart: `__shop` without `__cart` (page views set one before decision 021). */
export function hasStrayShopperToken(request: Request): boolean {
  const names = cookieNames(request.headers.get("Cookie"));
  return names.has("__shop") && !names.has("__cart");
}

const csrfRefused = () =>
  new Response("The form has expired or did not come from this site. Reload the page and try again.", { status: 403 });

/**
 * The CSRF token as a page carries it: a fresh random mask and the token XOR the mask, base64url.
 * Every response shows different bytes for the same token, so a compressed page's length says
 * nothing about the token (BREACH, decision 020); requireCsrf takes the masked or the plain form.
 */
export function maskCsrfToken(token: string): string {
  const raw = Buffer.from(token, "utf8");
  const mask = randomBytes(raw.length);
  const masked = Buffer.alloc(raw.length);
  for (let i = 0; i < raw.length; i++) masked[i] = raw[i] ^ mask[i];
  return Buffer.concat([mask, masked]).toString("base64url");
}

function unmaskCsrfToken(given: string): string | null {
  if (given.length > 400 || !/^[A-Za-z0-9_-]+$/.test(given)) return null;
  const bytes = Buffer.from(given, "base64url");
  if (bytes.length === 0 || bytes.length % 2 !== 0) return null;
  const n = bytes.length / 2;
  const raw = Buffer.alloc(n);
  for (let i = 0; i < n; i++) raw[i] = bytes[i] ^ bytes[n + i];
  return raw.toString("utf8");
}

/**
 * Checks the form's CSRF token (masked, maskCsrfToken, or plain) against the session's (constant
 * time) and, when the browser says where the request came from, that it came from this site. A
 * failure is a 403.
 *
 * On the storefront (decision 021) a shopper without a cart holds no token (pages are shared by every
 * anonymous visitor and carry none): their form is accepted only when the browser says it was sent
 * from the storefront's own origin (`Origin`, or `Sec-Fetch-Site: same-origin`), which a browser
 * never says of another site's form. With a cart, the shopper's token is required as everywhere.
 */
export async function requireCsrf(request: Request, form: FormData, env: Env): Promise<void> {
  const storefront = isStorefrontPath(new URL(request.url).pathname);
  const own = storefront ? env.storefrontUrl : env.publicUrl;
  const origin = request.headers.get("Origin");
  if (origin && origin !== "null" && origin !== own)
    throw new Response("Cross-site form submission refused", { status: 403 });
  const site = request.headers.get("Sec-Fetch-Site");
  if (storefront && site && site !== "same-origin" && site !== "none")
    throw new Response("Cross-site form submission refused", { status: 403 });
  const session = await getSession(request, env);
  const expected = session.get("csrf");
  if (storefront && !shopperCsrfToken(session)) {
    if (origin === own || (!origin && site === "same-origin")) return;
    throw csrfRefused();
  }
  const given = form.get("csrf");
  const matches = (value: string) => safeEqual(expected, value) || safeEqual(expected, unmaskCsrfToken(value) ?? "");
  if (typeof expected !== "string" || expected.length === 0 || typeof given !== "string" || !matches(given))
    throw csrfRefused();
}

/**
 * Only same-site paths: "/portal", never "//evil.example", "/\\evil.example" or "https://…". Control
 * characters are refused too: browsers drop tabs and newlines from a Location, so "/<TAB>/evil.example"
 * would become "//evil.example".
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (
    typeof to !== "string" ||
    !to.startsWith("/") ||
    to.startsWith("//") ||
    to.startsWith("/\\") ||
    /[\u0000-\u001f\u007f]/.test(to)
  )
    return fallback;
  return to;
}

export const homeFor = (role: Role) =>
  role === "DEVELOPER" ? "/portal" : role === "MERCHANT" ? "/admin" : "/reviewer";

/** How long a sign-in lasts (the cookie's max-age and the session row's expiry). */
export const SESSION_TTL_MS = BROWSER_SESSION_TTL_MS;

/**
 * Starts a session: a random id in the signed cookie, its SHA-256 in `sessions` (so the server can
 * end it) with the device, the "signed in" entry and, from a new device, its notice
 * (`startSession`), and a new CSRF token. Called only when every step of sign-in is done.
 */
export async function signIn(
  request: Request,
  { db, env }: PlatformContext,
  account: Account,
  redirectTo: string,
  method = "password",
) {
  const storage = sessionStorage(env);
  const session = await storage.getSession(request.headers.get("Cookie"));
  const sid = randomToken(32);
  await startSession(db, account, {
    ...deviceOf(request, clientAddress(request)),
    kind: "BROWSER",
    cookieId: sid,
    method,
  });
  session.unset("accountId");
  session.unset(PENDING_STEP);
  session.set("sid", sid);
  session.set("csrf", randomToken(24)); // a new token on every sign-in
  return redirect(redirectTo, { headers: { "Set-Cookie": await storage.commitSession(session) } });
}

/** The cookie's key of a pending second step's challenge id (accounts/second-step.server.ts). */
export const PENDING_STEP = "pendingStep";

/** Ends the session on the server (a copy of the cookie stops working) and clears the cookie. */
export async function signOut(request: Request, { db, env }: PlatformContext) {
  const storage = sessionStorage(env);
  const session = await storage.getSession(request.headers.get("Cookie"));
  const sid = session.get("sid");
  if (typeof sid === "string")
    await db
      .update(sessions)
      .set({ revokedAt: now() })
      .where(and(eq(sessions.idHash, sha256(sid)), isNull(sessions.revokedAt)));
  return redirect("/", { headers: { "Set-Cookie": await storage.destroySession(session) } });
}

/** The live session of a cookie with its account (every signed-in page): built once per database handle. */
const cookieSessionAccount = perDatabase((db: Db) =>
  db
    .select({ account: accounts, sessionId: sessions.id, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(
      and(
        eq(sessions.idHash, sql.placeholder("idHash")),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder("now")),
        isNull(accounts.closedAt),
      ),
    )
    .prepare("cookie_session_account"),
);

/** The account of a live session (not revoked, not expired) and the session's public id. */
export async function signedInSession(
  request: Request,
  context: PlatformContext,
): Promise<{ account: Account; sessionId: string } | null> {
  // nobody is signed in on the storefront's origin: the platform's cookie never reaches it
  if (isStorefrontPath(new URL(request.url).pathname)) return null;
  const session = await getSession(request, context.env);
  const sid = session.get("sid");
  if (typeof sid !== "string") return null;
  const [row] = await cookieSessionAccount(context.db).execute({ idHash: sha256(sid), now: now().toISOString() });
  if (!row) return null;
  if (now().getTime() - row.lastSeenAt.getTime() > LAST_SEEN_EVERY_MS) await touchSession(context.db, row.sessionId);
  return { account: row.account, sessionId: row.sessionId };
}

/** The account of a live session: not revoked, not expired. */
export async function getSignedInAccount(request: Request, context: PlatformContext): Promise<Account | null> {
  return (await signedInSession(request, context))?.account ?? null;
}

/**
 * Who is asking: the account, its business, and, with a business, the `member` (contract 17: owner
 * or staff, and the permissions), read with the session on every request, so a change of
 * permissions or a removal counts at once.
 */
export type UserContext = {
  account: Account;
  business: Business | null;
  member: Member | null;
  /** the public id of the session (cookie or JWT) the request came with */
  sessionId: string;
};

/**
 * Whether the account must have a second factor and has none (contract 18, decision 072): reviewers
 * (platform staff) always need one; a business's members when the owner requires it.
 */
export function secondFactorMissing(user: Pick<UserContext, "account" | "business">): boolean {
  if (user.account.hasSecondFactor) return false;
  return user.account.role === "REVIEWER" || user.business?.requireSecondFactor === true;
}

/** The 403 of a JSON call by an account that must enrol first: it names what is missing. */
export const SECOND_FACTOR_REQUIRED =
  "A second factor is required: set up an authenticator app or a passkey (POST /auth/mfa/totp, or the Security page at /account/security) first";

/**
 * Who is let into an area of a role (contract 1 and 14). Each role's own accounts, and, for the
 * merchant's area (/admin, /merchant), a developer whose business is their own sandbox: the
 * business always comes from the account's row, never from the request, so a developer reaches
 * that one sandbox business and no other. Reviewers never enter another role's area.
 */
export function admits(role: Role, user: UserContext): boolean {
  if (user.account.role === role) return true;
  return role === "MERCHANT" && user.account.role === "DEVELOPER" && user.business?.isSandbox === true;
}

async function userOf(context: PlatformContext, account: Account, sessionId: string): Promise<UserContext> {
  const business = account.businessId ? ((await getBusiness(context.db, account.businessId)) ?? null) : null;
  return { account, business, member: business ? memberOf(account) : null, sessionId };
}

/** Where an account that must enrol a second factor is sent before any other page. */
export const ENROL_PATH = "/account/security";

/** Page guard: a signed-in account the role's area admits (`admits`), else sign in (and come back) or 403. */
export async function requireUser(request: Request, context: PlatformContext, role: Role): Promise<UserContext> {
  const signed = await signedInSession(request, context);
  if (!signed) {
    const url = new URL(request.url);
    throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  const user = await userOf(context, signed.account, signed.sessionId);
  if (secondFactorMissing(user)) throw redirect(`${ENROL_PATH}?required=1`);
  if (!admits(role, user)) throw new Response(`This area is for ${role.toLowerCase()} accounts.`, { status: 403 });
  // the merchant's area of a developer's sandbox runs on the sandbox's own clock (contract 19)
  if (role === "MERCHANT") enterBusinessClock(user.business);
  return user;
}

/**
 * The account of a request's `Authorization: Bearer <JWT>`, whatever its role: 401 when the token is
 * missing, bad, expired, of a removed account, older than the account's last password reset (its
 * `cv` claim is not the account's credentials version), or of an ended session (its `sid`, contract
 * 18). The session and the account are read in one statement on the session id's unique index; the
 * session's last-seen time is written at most once a minute. An account that must have a second
 * factor and has none gets 403 naming it, except on the calls that set one up (`enrolling`).
 */
/** The session of a token with its account (every signed-in JSON call): built once per database handle. */
const sessionAccount = perDatabase((db: Db) =>
  db
    .select({ account: accounts, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(
      and(
        eq(sessions.id, sql.placeholder("sid")),
        eq(sessions.accountId, sql.placeholder("sub")),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder("now")),
      ),
    )
    .prepare("session_account"),
);

export async function requireBearerAccount(
  request: Request,
  context: PlatformContext,
  options: { enrolling?: boolean } = {},
): Promise<UserContext> {
  const header = request.headers.get("Authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw new ApiError(401, "Missing bearer token");
  const claims = await verifyJwt(
    match[1],
    context.env.sessionSecret,
    Math.floor(now().getTime() / 1000),
    ACCOUNT_TOKEN_AUDIENCE,
  );
  if (!claims || typeof claims.sub !== "string" || typeof claims.sid !== "string")
    throw new ApiError(401, "Invalid or expired token");
  // timestamps go to the driver as text (db/sql.ts)
  const [row] = await sessionAccount(context.db).execute({
    sid: claims.sid,
    sub: claims.sub,
    now: now().toISOString(),
  });
  const account = row?.account;
  // a removed member's account is closed (decision 069): its tokens stop at once
  if (!account || account.closedAt || (claims.cv ?? 0) !== account.credentialsVersion)
    throw new ApiError(401, "Invalid or expired token");
  if (now().getTime() - row.lastSeenAt.getTime() > LAST_SEEN_EVERY_MS) await touchSession(context.db, claims.sid);
  const user = await userOf(context, account, claims.sid);
  if (!options.enrolling && secondFactorMissing(user)) throw new ApiError(403, SECOND_FACTOR_REQUIRED);
  return user;
}

/** JSON guard: `Authorization: Bearer <JWT>` of an existing account the role's area admits (`admits`). */
export async function requireApiAccount(request: Request, context: PlatformContext, role: Role): Promise<UserContext> {
  const user = await requireBearerAccount(request, context);
  if (!admits(role, user)) throw new ApiError(403, `This endpoint requires the ${role} role`);
  // the merchant API of a developer's sandbox runs on the sandbox's own clock (contract 19)
  if (role === "MERCHANT") enterBusinessClock(user.business);
  return user;
}
