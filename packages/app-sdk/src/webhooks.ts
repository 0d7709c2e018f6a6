/**
 * Verifying what the platform sends an app: webhook deliveries and synchronous hook calls.
 *
 * Both are signed the same way (contract 7 and 8): HMAC-SHA256 with the installation's (or the
 * registration's) webhook secret over `<X-Webhook-Timestamp>.<raw body>`, sent as
 * `X-Webhook-Signature: sha256=<hex>`. Always verify the exact bytes received, before parsing.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { WebhookEvent } from "./events.ts";

/** Why a request was refused. */
export type VerifyErrorCode = "missing_header" | "bad_signature" | "stale_timestamp" | "bad_body";

/** Thrown by {@link verifyWebhook} and {@link verifyHookCall}; `code` names the cause. */
export class WebhookVerificationError extends Error {
  readonly code: VerifyErrorCode;
  constructor(code: VerifyErrorCode, message: string) {
    super(message);
    this.name = "WebhookVerificationError";
    this.code = code;
  }
}

/** Node's `req.headers`, a fetch `Headers`, or any record of header names to values. */
export type HeaderSource = Record<string, string | string[] | undefined> | { get(name: string): string | null };

export interface VerifyOptions {
  /** How far the timestamp may be from now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** Current time in seconds since the epoch (for tests). */
  nowSeconds?: number;
}

/** The envelope of a webhook delivery. */
export interface WebhookEnvelope<D = Record<string, unknown>> {
  id: string;
  event: string;
  businessId: string;
  timestamp: string;
  /** The API version `data` is rendered in: the app's pinned version (also the Api-Version header). */
  apiVersion: string;
  data: D;
  [key: string]: unknown;
}

/** The envelope of a hook call. */
export interface HookCallEnvelope<D = Record<string, unknown>> {
  hookPoint: string;
  businessId: string;
  timestamp: string;
  /** The API version `data` is rendered in (and the answer is read in): the app's pinned version. */
  apiVersion: string;
  data: D;
}

export function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === "function")
    return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const lower = name.toLowerCase();
  const value = record[name] ?? record[lower] ?? Object.entries(record).find(([k]) => k.toLowerCase() === lower)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

/** The signature header value for a body (what the platform sends); useful in tests. */
export function signPayload(secret: string, timestamp: string | number, rawBody: string | Uint8Array): string {
  return "sha256=" + createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex");
}

function checkSignature(
  rawBody: string | Uint8Array,
  headers: HeaderSource,
  secret: string,
  options: VerifyOptions,
): void {
  if (!secret) throw new TypeError("verifyWebhook: the webhook secret is empty");
  const signature = headerValue(headers, "X-Webhook-Signature");
  const timestamp = headerValue(headers, "X-Webhook-Timestamp");
  if (!signature) throw new WebhookVerificationError("missing_header", "X-Webhook-Signature header is missing");
  if (!timestamp) throw new WebhookVerificationError("missing_header", "X-Webhook-Timestamp header is missing");
  if (!/^\d{1,12}$/.test(timestamp))
    throw new WebhookVerificationError("stale_timestamp", "X-Webhook-Timestamp is not a Unix time in seconds");
  const expected = Buffer.from(signPayload(secret, timestamp, rawBody));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    throw new WebhookVerificationError("bad_signature", "signature does not match the body and the secret");
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300))
    throw new WebhookVerificationError("stale_timestamp", "timestamp is outside the tolerance (a replay?)");
}

function parse<T>(rawBody: string | Uint8Array): T {
  try {
    return JSON.parse(typeof rawBody === "string" ? rawBody : Buffer.from(rawBody).toString("utf8")) as T;
  } catch {
    throw new WebhookVerificationError("bad_body", "body is not JSON");
  }
}

/**
 * Verifies a webhook delivery and returns its parsed envelope; throws a
 * {@link WebhookVerificationError} (`missing_header`, `bad_signature`, `stale_timestamp`) otherwise.
 * Deduplicate on `envelope.id` (the X-Service-Event-Id, covered by the signature). Without a type
 * argument the envelope is a {@link WebhookEvent}: narrowing on `event` types `data`.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: HeaderSource,
  secret: string,
  options?: VerifyOptions,
): WebhookEvent;
export function verifyWebhook<D>(
  rawBody: string | Uint8Array,
  headers: HeaderSource,
  secret: string,
  options?: VerifyOptions,
): WebhookEnvelope<D>;
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: HeaderSource,
  secret: string,
  options: VerifyOptions = {},
): WebhookEnvelope {
  checkSignature(rawBody, headers, secret, options);
  return parse<WebhookEnvelope>(rawBody);
}

/**
 * Verifies a synchronous hook call (checkout hooks) and returns its envelope. The X-Hook-Point
 * header must agree with the signed body's hookPoint.
 */
export function verifyHookCall<D = Record<string, unknown>>(
  rawBody: string | Uint8Array,
  headers: HeaderSource,
  secret: string,
  options: VerifyOptions = {},
): HookCallEnvelope<D> {
  checkSignature(rawBody, headers, secret, options);
  const envelope = parse<HookCallEnvelope<D>>(rawBody);
  const point = headerValue(headers, "X-Hook-Point");
  if (!point) throw new WebhookVerificationError("missing_header", "X-Hook-Point header is missing");
  if (point !== envelope.hookPoint)
    throw new WebhookVerificationError("bad_signature", "X-Hook-Point does not match the signed body");
  return envelope;
}
