/**
 * The confirmation page's capability link: /s/<slug>/orders/<orderId>?t=<token>. Only the shopper
 * who placed the order gets the token, so nobody can read another order by changing the id.
 */
import type { Env } from "./env.server";
import { hmacSha256Hex, safeEqual } from "./crypto.server";

export function orderToken(env: Pick<Env, "sessionSecret">, orderId: string): string {
  return hmacSha256Hex(env.sessionSecret, "order:" + orderId).slice(0, 32);
}

/** Constant-time check of a token from the URL. */
export function verifyOrderToken(
  env: Pick<Env, "sessionSecret">,
  orderId: string,
  token: string | null | undefined,
): boolean {
  if (typeof token !== "string" || token.length === 0 || token.length > 128) return false;
  return safeEqual(orderToken(env, orderId), token);
}

export function orderPath(env: Pick<Env, "sessionSecret">, businessSlug: string, orderId: string): string {
  return `/s/${encodeURIComponent(businessSlug)}/orders/${encodeURIComponent(orderId)}?t=${orderToken(env, orderId)}`;
}
