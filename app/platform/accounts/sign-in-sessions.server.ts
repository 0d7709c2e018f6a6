/**
 * Sign-in sessions (contract 18, decision 074): every sign-in, by the page (a cookie) or by
 * `POST /auth/login` (a JWT), is one `sessions` row with its device (the user agent), address,
 * created and last-seen times. A JWT carries the row's public id as `sid`; ending the row ends the
 * JWT at once (the bearer guard reads the row with the account in one indexed statement). The row
 * of a sign-in from a device the account never used before sends the account a notice.
 */
import { and, desc, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { sessions, type Account } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { now } from "../core/clock.server";
import { sha256 } from "../core/crypto.server";
import { randomToken } from "../core/ids.server";
import { accountActor, recordActivity } from "../activity/activity.server";
import { queueSecurityNotice } from "../mail/security-mail.server";

/** How long a browser sign-in lasts (the cookie's max-age and the row's expiry); a JWT's row lives as long as the JWT. */
export const BROWSER_SESSION_TTL_MS = 7 * 24 * 3600 * 1000;
export const TOKEN_SESSION_TTL_MS = 24 * 3600 * 1000;
/** The last-seen time moves at most this often, so the check on every request rarely writes. */
export const LAST_SEEN_EVERY_MS = 60_000;

export type Device = { ip: string; userAgent: string };

/** The device of a request: its client address (given) and its user agent, cut to a sane length. */
export const deviceOf = (request: Request, ip: string): Device => ({
  ip,
  userAgent: (request.headers.get("User-Agent") ?? "").slice(0, 400),
});

/** "Chrome on macOS", "Firefox on Windows", "curl": what a person calls the device, from its user agent. */
export function deviceLabel(userAgent: string): string {
  const ua = userAgent;
  if (!ua) return "Unknown device";
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /OPR\//.test(ua)
      ? "Opera"
      : /Firefox\//.test(ua)
        ? "Firefox"
        : /Chrom(e|ium)\//.test(ua)
          ? "Chrome"
          : /Safari\//.test(ua)
            ? "Safari"
            : (ua.split(/[/\s]/)[0] ?? "Unknown").slice(0, 40);
  const os = /iPhone|iPad/.test(ua)
    ? "iOS"
    : /Android/.test(ua)
      ? "Android"
      : /Mac OS X|Macintosh/.test(ua)
        ? "macOS"
        : /Windows/.test(ua)
          ? "Windows"
          : /Linux|X11/.test(ua)
            ? "Linux"
            : "";
  return os ? `${browser} on ${os}` : browser;
}

/**
 * Starts a session for an account that has passed every step of sign-in: the row, the "signed in"
 * entry of the activity log and, from a device the account never signed in from, the notice. For a
 * browser, `cookieId` is the random id its cookie will hold (only its hash is stored).
 */
export async function startSession(
  db: Db,
  account: Account,
  input: Device & { kind: "BROWSER" | "TOKEN"; cookieId?: string; method: string },
): Promise<{ id: string }> {
  return db.transaction(async (tx) => {
    const t = now();
    const [known] = await tx
      .select({ one: sql`1` })
      .from(sessions)
      .where(and(eq(sessions.accountId, account.id), eq(sessions.userAgent, input.userAgent)))
      .limit(1);
    const [any] = await tx
      .select({ one: sql`1` })
      .from(sessions)
      .where(eq(sessions.accountId, account.id))
      .limit(1);
    const [row] = await tx
      .insert(sessions)
      .values({
        idHash: sha256(input.cookieId ?? `token:${randomToken(24)}`),
        accountId: account.id,
        kind: input.kind,
        ip: input.ip,
        userAgent: input.userAgent,
        createdAt: t,
        lastSeenAt: t,
        expiresAt: new Date(t.getTime() + (input.kind === "BROWSER" ? BROWSER_SESSION_TTL_MS : TOKEN_SESSION_TTL_MS)),
      })
      .returning({ id: sessions.id });
    await recordActivity(tx, {
      businessId: account.businessId,
      accountId: account.id,
      actor: accountActor(account),
      action: "account.signed_in",
      target: { type: "session", id: row.id },
      ip: input.ip,
      details: { method: input.method, device: deviceLabel(input.userAgent) },
    });
    // the first session of an account (its registration) is not news; a device it never used is
    if (any && !known)
      await queueSecurityNotice(tx, account, {
        event: "new_device",
        sessionId: row.id,
        device: deviceLabel(input.userAgent),
        ip: input.ip,
      });
    return row;
  });
}

/** The account's live sessions, newest first, `current` marking the caller's. */
export async function listSessions(db: Db, accountId: string, currentId: string | null) {
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.accountId, accountId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now())))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.id));
  return rows.map((s) => ({
    id: s.id,
    createdAt: s.createdAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(),
    ip: s.ip,
    userAgent: s.userAgent,
    device: deviceLabel(s.userAgent),
    kind: s.kind,
    current: s.id === currentId,
  }));
}

type Actor = { account: Account; ip: string };

async function logEnded(tx: Db, by: Actor, ids: string[], reason: string) {
  for (const id of ids)
    await recordActivity(tx, {
      businessId: by.account.businessId,
      accountId: by.account.id,
      actor: accountActor(by.account),
      action: "session.ended",
      target: { type: "session", id },
      ip: by.ip,
      details: { reason },
    });
}

/** Ends one of the account's own sessions (another account's id, or an ended one, is 404). */
export async function endSession(db: Db, by: Actor, sessionId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(sessions)
      .set({ revokedAt: now() })
      .where(and(eq(sessions.id, sessionId), eq(sessions.accountId, by.account.id), isNull(sessions.revokedAt)))
      .returning({ id: sessions.id });
    if (!row) throw new ApiError(404, "Session not found");
    await logEnded(tx, by, [row.id], "ended by the account");
  });
}

/** Ends every live session of the account but `keepId` (null: all of them); returns how many. */
export async function endOtherSessions(db: Db, by: Actor, keepId: string | null, reason = "ended by the account") {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(sessions)
      .set({ revokedAt: now() })
      .where(
        and(
          eq(sessions.accountId, by.account.id),
          isNull(sessions.revokedAt),
          keepId ? ne(sessions.id, keepId) : undefined,
        ),
      )
      .returning({ id: sessions.id });
    await logEnded(
      tx,
      by,
      rows.map((r) => r.id),
      reason,
    );
    return rows.length;
  });
}

/** The request found the session's last-seen time over a minute old: move it (one small write a minute at most). */
export async function touchSession(db: Db, sessionId: string): Promise<void> {
  const t = now();
  await db
    .update(sessions)
    .set({ lastSeenAt: t })
    .where(
      and(
        eq(sessions.id, sessionId),
        sql`${sessions.lastSeenAt} < ${new Date(t.getTime() - LAST_SEEN_EVERY_MS).toISOString()}::timestamptz`,
      ),
    );
}
