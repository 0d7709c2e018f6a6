/**
 * Framework adapters that keep the raw body (a signature is over the exact bytes received).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  verifyHookCall,
  verifyWebhook,
  WebhookVerificationError,
  type HookCallEnvelope,
  type VerifyOptions,
  type WebhookEnvelope,
} from "./webhooks.ts";

const MAX_BODY = 1024 * 1024;

/** Reads a request's body as a Buffer (at most 1 MiB). */
export function readRawBody(req: IncomingMessage, limit = MAX_BODY): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new Error("body too large"));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

type Handler<E> = (envelope: E, req: IncomingMessage) => unknown | Promise<unknown>;

/**
 * The webhook secret to verify with: a string, or a function for an app installed on many
 * businesses, given the `businessId` the (not yet verified) body names, that returns that
 * business's installation secret (undefined when the app does not know the business: refused as
 * `bad_signature`). Only the secret is chosen from the unverified body; the signature decides.
 */
export type SecretSource = string | ((unverified: { businessId?: string }, req: IncomingMessage) => string | undefined);

function secretFor(secret: SecretSource, raw: Buffer, req: IncomingMessage): string {
  if (typeof secret === "string") return secret;
  let businessId: string | undefined;
  try {
    const body = JSON.parse(raw.toString("utf8")) as { businessId?: unknown };
    if (typeof body?.businessId === "string") businessId = body.businessId;
  } catch {
    /* verification below names the cause */
  }
  const found = secret({ businessId }, req);
  if (!found)
    throw new WebhookVerificationError(
      "bad_signature",
      "no webhook secret for this request (a business the app is not installed on?)",
    );
  return found;
}

function refuse(res: ServerResponse, error: unknown) {
  const code = error instanceof WebhookVerificationError ? error.code : "bad_request";
  res.writeHead(401, { "Content-Type": "application/json" });
  res.end(JSON.stringify({ error: code }));
}

type Verify<E> = (raw: Buffer, headers: IncomingMessage["headers"], secret: string, options: VerifyOptions) => E;

/** A node:http handler that verifies with `verify`, then answers 200 with the JSON `answer` makes. */
function nodeHandler<E>(
  verify: Verify<E>,
  secret: SecretSource,
  options: VerifyOptions,
  answer: (envelope: E, req: IncomingMessage) => Promise<string>,
) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readRawBody(req);
    let envelope: E;
    try {
      envelope = verify(raw, req.headers, secretFor(secret, raw, req), options);
    } catch (error) {
      return refuse(res, error);
    }
    const body = await answer(envelope, req);
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(body);
  };
}

/**
 * A plain node:http handler for webhooks: verifies, then calls `handler` with the envelope and
 * answers 200 (401 `{error: <code>}` when verification fails).
 */
export function nodeWebhookHandler<D = Record<string, unknown>>(
  secret: SecretSource,
  handler: Handler<WebhookEnvelope<D>>,
  options: VerifyOptions = {},
) {
  return nodeHandler(verifyWebhook<D>, secret, options, async (envelope, req) => {
    await handler(envelope, req);
    return '{"received":true}';
  });
}

/** A plain node:http handler for a hook point: the handler's return value is the JSON answer. */
export function nodeHookHandler<D = Record<string, unknown>>(
  secret: SecretSource,
  handler: Handler<HookCallEnvelope<D>>,
  options: VerifyOptions = {},
) {
  return nodeHandler(verifyHookCall<D>, secret, options, async (envelope, req) =>
    JSON.stringify((await handler(envelope, req)) ?? {}),
  );
}

type ExpressRequest = IncomingMessage & { body?: unknown; webhook?: WebhookEnvelope; hookCall?: HookCallEnvelope };
type ExpressResponse = ServerResponse & { status(code: number): ExpressResponse; json(body: unknown): unknown };
type Next = (error?: unknown) => void;

async function rawOf(req: ExpressRequest): Promise<Buffer> {
  // works with express.raw({type: "application/json"}) or with no body parser at all
  if (Buffer.isBuffer(req.body)) return req.body;
  if (typeof req.body === "string") return Buffer.from(req.body);
  if (req.body !== undefined && req.readableEnded)
    throw new Error(
      'the body was already parsed: mount express.raw({ type: "*/*" }) (or no parser) before the webhook middleware',
    );
  return readRawBody(req);
}

/** Express middleware that verifies with `verify` and hands the envelope to `put` (401 `{error: <code>}` otherwise). */
function expressVerifier<E>(
  verify: Verify<E>,
  secret: SecretSource,
  options: VerifyOptions,
  put: (req: ExpressRequest, envelope: E) => void,
) {
  return async (req: ExpressRequest, res: ExpressResponse, next: Next): Promise<undefined> => {
    try {
      const raw = await rawOf(req);
      put(req, verify(raw, req.headers, secretFor(secret, raw, req), options));
      next();
    } catch (error) {
      if (error instanceof WebhookVerificationError) return void res.status(401).json({ error: error.code });
      next(error);
    }
  };
}

/**
 * Express middleware: verifies a webhook and puts the envelope on `req.webhook`
 * (401 `{error: <code>}` otherwise). Mount it before express.json(), or after express.raw().
 */
export function expressWebhook(secret: SecretSource, options: VerifyOptions = {}) {
  return expressVerifier(
    verifyWebhook<Record<string, unknown>>,
    secret,
    options,
    (req, envelope) => (req.webhook = envelope),
  );
}

/** Express middleware for hook calls: the envelope on `req.hookCall`. */
export function expressHookCall(secret: SecretSource, options: VerifyOptions = {}) {
  return expressVerifier(verifyHookCall, secret, options, (req, envelope) => (req.hookCall = envelope));
}
