/**
 * Webhook signature verification, as the platform's own tests and examples check a delivery. Apps
 * use the SDK (`@storefront/app-sdk`'s verifyWebhook, docs/developers/webhooks.md), whose error
 * codes these reasons share.
 *
 *   const ok = verifyWebhook(rawBody, req.headers, process.env.WEBHOOK_SECRET, { toleranceSeconds: 300 });
 *
 * rawBody must be the exact bytes received (before any JSON parsing). The signature is
 * HMAC-SHA256 over `<X-Webhook-Timestamp>.<rawBody>` with the webhook secret, sent as
 * `X-Webhook-Signature: sha256=<hex>`. Compare in constant time; refuse stale timestamps.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export type VerifyResult = { ok: true } | { ok: false; reason: "missing_header" | "bad_signature" | "stale_timestamp" };

type Headers = Record<string, string | string[] | undefined> | { get(name: string): string | null };

function header(headers: Headers, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === "function")
    return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const value =
    record[name] ??
    record[name.toLowerCase()] ??
    Object.entries(record).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
  return Array.isArray(value) ? value[0] : value;
}

export function signWebhook(secret: string, timestamp: string | number, rawBody: string | Buffer): string {
  return "sha256=" + createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex");
}

export function verifyWebhookDetailed(
  rawBody: string | Buffer,
  headers: Headers,
  secret: string,
  options: { toleranceSeconds?: number; nowSeconds?: number } = {},
): VerifyResult {
  const signature = header(headers, "X-Webhook-Signature");
  const timestamp = header(headers, "X-Webhook-Timestamp");
  if (!signature || !timestamp || !/^\d+$/.test(timestamp)) return { ok: false, reason: "missing_header" };
  const expected = Buffer.from(signWebhook(secret, timestamp, rawBody));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    return { ok: false, reason: "bad_signature" };
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300))
    return { ok: false, reason: "stale_timestamp" };
  return { ok: true };
}

/** true when the delivery is authentic and fresh. */
export function verifyWebhook(
  rawBody: string | Buffer,
  headers: Headers,
  secret: string,
  options: { toleranceSeconds?: number; nowSeconds?: number } = {},
): boolean {
  return verifyWebhookDetailed(rawBody, headers, secret, options).ok;
}
