/**
 * Single-use tokens of e-mailed links (contract 16): verify an address (24 h), reset a password
 * (1 h), accept an invitation (7 days). The token is an HMAC of its row's id under the session
 * secret: only its SHA-256 is stored, and the sending job derives it again for the link, so the token
 * is never written anywhere. Using a token is one conditional update (unused, unexpired): it works once.
 */
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { accountTokens, type AccountToken } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { hmacSha256Hex, sha256 } from "../core/crypto.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";

export type TokenKind = AccountToken["kind"];
export const TOKEN_TTL_MS: Record<TokenKind, number> = {
  VERIFY_EMAIL: 24 * 3600_000,
  RESET_PASSWORD: 3600_000,
  INVITATION: 7 * 24 * 3600_000,
};

export const tokenOf = (env: Pick<Env, "sessionSecret">, tokenId: string) =>
  Buffer.from(hmacSha256Hex(env.sessionSecret, `account-token:${tokenId}`), "hex").toString("base64url");

/** A new token row (in the caller's transaction); its id goes into the message's data. */
export async function createAccountToken(
  db: Db,
  env: Pick<Env, "sessionSecret">,
  input: { kind: TokenKind; accountId: string; email: string; data?: Record<string, unknown> },
): Promise<string> {
  const id = newId("tok");
  const t = now();
  await db.insert(accountTokens).values({
    id,
    kind: input.kind,
    accountId: input.accountId,
    email: input.email,
    tokenHash: sha256(tokenOf(env, id)),
    data: input.data ?? {},
    expiresAt: new Date(t.getTime() + TOKEN_TTL_MS[input.kind]),
    createdAt: t,
  });
  return id;
}

/** Uses a token once: its row when it was unused and unexpired (and is used now), else null. */
export async function useAccountToken(db: Db, kind: TokenKind, token: unknown): Promise<AccountToken | null> {
  if (typeof token !== "string" || token.length < 20 || token.length > 200) return null;
  const t = now();
  const [row] = await db
    .update(accountTokens)
    .set({ usedAt: t })
    .where(
      and(
        eq(accountTokens.tokenHash, sha256(token)),
        eq(accountTokens.kind, kind),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, t),
      ),
    )
    .returning();
  return row ?? null;
}

/** A token's row without using it (a page showing the form before the POST), or null. */
export async function peekAccountToken(db: Db, kind: TokenKind, token: unknown): Promise<AccountToken | null> {
  if (typeof token !== "string" || token.length < 20 || token.length > 200) return null;
  const [row] = await db
    .select()
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.tokenHash, sha256(token)),
        eq(accountTokens.kind, kind),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now()),
      ),
    );
  return row ?? null;
}
