/**
 * One-click unsubscribe (RFC 8058, contract 16): the link of a notification names the account and the
 * kind, signed with a key derived from the session secret, so a POST to it turns that kind off without
 * signing in, and nobody can make a link for another account.
 */
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { accounts } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { hmacSha256Hex, safeEqual } from "../core/crypto.server";
import { isMailKind, type MailKind } from "./kinds";

const sign = (env: Pick<Env, "sessionSecret">, payload: string) =>
  hmacSha256Hex(env.sessionSecret, `mail-unsubscribe:${payload}`).slice(0, 32);

export function unsubscribeToken(env: Pick<Env, "sessionSecret">, accountId: string, kind: MailKind): string {
  const payload = Buffer.from(`${accountId}|${kind}`).toString("base64url");
  return `${payload}.${sign(env, payload)}`;
}

export const unsubscribeUrl = (env: Pick<Env, "sessionSecret" | "publicUrl">, accountId: string, kind: MailKind) =>
  `${env.publicUrl}/unsubscribe?token=${unsubscribeToken(env, accountId, kind)}`;

/** The account and kind of a token, or null when it is not one the platform signed. */
export function readUnsubscribeToken(
  env: Pick<Env, "sessionSecret">,
  token: unknown,
): { accountId: string; kind: MailKind } | null {
  if (typeof token !== "string" || token.length > 300) return null;
  const [payload, signature, extra] = token.split(".");
  if (!payload || !signature || extra !== undefined || !safeEqual(sign(env, payload), signature)) return null;
  const [accountId, kind] = Buffer.from(payload, "base64url").toString("utf8").split("|");
  return accountId && isMailKind(kind) ? { accountId, kind } : null;
}

/** Turns the kind off (or on) for the account. */
export async function setMailChoice(db: Db, accountId: string, kind: MailKind, on: boolean) {
  await db
    .update(accounts)
    .set({
      mailOff: on
        ? sql`array_remove(${accounts.mailOff}, ${kind})`
        : sql`array_append(array_remove(${accounts.mailOff}, ${kind}), ${kind})`,
    })
    .where(eq(accounts.id, accountId));
}
