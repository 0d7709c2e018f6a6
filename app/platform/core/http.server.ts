/**
 * One error class, one error body ({statusCode, message, error}), one way to read and validate
 * JSON, and one wrapper for every JSON route. Unknown errors become a 500 that leaks nothing.
 */
import { STATUS_CODES } from "node:http";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";

export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_JSON_DEPTH = 32;

export class ApiError extends Error {
  constructor(
    public status: number,
    message: string,
    public headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const statusPhrase = (status: number) => STATUS_CODES[status] ?? "Error";

export function errorBody(status: number, message: string) {
  return { statusCode: status, message, error: statusPhrase(status) };
}

/**
 * A JSON answer that keeps its text, so the server writes it without a body stream (json-routes.server.ts).
 * Its body stream is made only when something reads the answer as a Response (Remix's own adapter
 * for a `?_data=` request, a test's `.json()`): building undici's stream for every App API answer
 * and reading it back cost a twentieth of a call's CPU (docs/performance.md, session 14).
 */
export class JsonResponse extends Response {
  #full: Response | undefined;
  constructor(
    readonly jsonText: string,
    init: ResponseInit,
  ) {
    super(null, init);
  }
  /** The same answer as a plain Response with its body, made once, the first time the body is read. */
  #read(): Response {
    return (this.#full ??= new Response(this.jsonText, { status: this.status, headers: this.headers }));
  }
  override get body() {
    return this.#read().body;
  }
  override get bodyUsed() {
    return this.#full?.bodyUsed ?? false;
  }
  override text() {
    return this.#read().text();
  }
  override json() {
    return this.#read().json();
  }
  override arrayBuffer() {
    return this.#read().arrayBuffer();
  }
  override bytes() {
    return this.#read().bytes();
  }
  override blob() {
    return this.#read().blob();
  }
  override formData() {
    return this.#read().formData();
  }
  override clone(): Response {
    if (this.bodyUsed) throw new TypeError("Response.clone: Body has already been consumed.");
    return new JsonResponse(this.jsonText, {
      status: this.status,
      statusText: this.statusText,
      headers: new Headers(this.headers),
    });
  }
}

/**
 * The text of an answer made by `json()`, or undefined. By its field, not `instanceof`: the server
 * (loaded from source) and the route modules (the Remix build) each have their own JsonResponse class.
 */
export function jsonTextOf(response: Response): string | undefined {
  const text = (response as { jsonText?: unknown }).jsonText;
  return typeof text === "string" && !response.bodyUsed ? text : undefined;
}

export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  const init = {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
  };
  return data === undefined ? new Response(null, init) : new JsonResponse(JSON.stringify(data), init);
}

export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return json(errorBody(status, message), status, headers);
}

/** The first problem of a zod error, as "field: message", naming every failing field. */
export function describeZodError(error: z.ZodError): string {
  const parts = error.issues.slice(0, 5).map((issue) => {
    const field = issue.path.length ? issue.path.join(".") : "body";
    return `${field}: ${issue.message}`;
  });
  return parts.join("; ");
}

export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ApiError(400, describeZodError(result.error));
  return result.data;
}

/** Rejects JSON nested deeper than MAX_JSON_DEPTH before parsing it. */
function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/** Reads the raw body, at most MAX_BODY_BYTES (413 beyond). */
/**
 * Bodies the JSON fast path already read (runtime/json-routes.server.ts), by request: taken without
 * reading the stream again; null for one over the size limit.
 */
export const readBodies = ((globalThis as { __readBodies?: WeakMap<Request, string | null> }).__readBodies ??=
  new WeakMap<Request, string | null>());

export async function readBodyText(request: Request): Promise<string> {
  const already = readBodies.get(request);
  if (already === null) throw new ApiError(413, `Request body exceeds ${MAX_BODY_BYTES} bytes`);
  if (already !== undefined) return already;
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw new ApiError(413, `Request body exceeds ${MAX_BODY_BYTES} bytes`);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      // Drain a little more so that the client reads our answer instead of a reset connection.
      while (size < 16 * MAX_BODY_BYTES) {
        const next = await reader.read();
        if (next.done) break;
        size += next.value.byteLength;
      }
      await reader.cancel().catch(() => {});
      throw new ApiError(413, `Request body exceeds ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A multipart body (an image upload, decision 060) may be this large: a 5 MB file and its form's few fields. */
export const MAX_MULTIPART_BODY_BYTES = 5 * 1024 * 1024 + 64 * 1024;
export const isMultipart = (contentType: string | null | undefined) =>
  /^multipart\/form-data\s*;/i.test(contentType ?? "");

/**
 * Reads a multipart/form-data body into its fields (the last of each name): 400 when it is not
 * one, cannot be read, or is larger than MAX_MULTIPART_BODY_BYTES (`tooLarge` words that refusal:
 * an upload's limit is its file's, contract 20).
 */
export async function readMultipart(request: Request, tooLarge: string): Promise<Record<string, FormDataEntryValue>> {
  if (!isMultipart(request.headers.get("content-type")))
    throw new ApiError(400, "Request body must be multipart/form-data");
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (readBodies.get(request) === null || declared > MAX_MULTIPART_BODY_BYTES) throw new ApiError(400, tooLarge);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new ApiError(400, "The multipart/form-data body could not be read");
  }
  return Object.fromEntries(form.entries());
}

/** Reads a JSON body: 413 when too large, 400 when malformed, too deep or empty. */
export async function readJson(request: Request, options: { optional?: boolean } = {}): Promise<unknown> {
  const text = await readBodyText(request);
  if (text.trim() === "") {
    if (options.optional) return {};
    throw new ApiError(400, "Request body must be a JSON document");
  }
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH))
    throw new ApiError(400, `JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, "Malformed JSON in request body");
  }
  // PostgreSQL text and jsonb cannot hold U+0000 or unpaired surrogates: refuse them here instead of failing in the database
  if (hasUnstorableText(value))
    throw new ApiError(
      400,
      "Strings in the request body may not contain NUL (\\u0000) or unpaired surrogate characters",
    );
  return value;
}

const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a parsed JSON value has U+0000 or an unpaired surrogate in a string or a key (depth is bounded by MAX_JSON_DEPTH). */
export function hasUnstorableText(value: unknown): boolean {
  if (typeof value === "string") return UNSTORABLE.test(value);
  if (Array.isArray(value)) return value.some(hasUnstorableText);
  if (typeof value === "object" && value !== null)
    return Object.entries(value).some(([k, v]) => UNSTORABLE.test(k) || hasUnstorableText(v));
  return false;
}

/**
 * A page form's fields. 400 (the error page with this message) when the body is not a form or a
 * field holds text PostgreSQL cannot store (NUL, unpaired surrogates), instead of a 500 later.
 */
export async function readForm(request: Request): Promise<FormData> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new Response("The form could not be read. Please send it again from the page.", { status: 400 });
  }
  for (const [name, value] of form)
    if (UNSTORABLE.test(name) || (typeof value === "string" && UNSTORABLE.test(value)))
      throw new Response("Form fields may not contain NUL characters or unpaired surrogates.", { status: 400 });
  return form;
}

export type Handler = (
  args: LoaderFunctionArgs | ActionFunctionArgs,
) => Promise<Response | object | null> | Response | object | null;
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Maps anything a handler throws to the contract's error body. */
/**
 * Whether an error means the database could not be reached or went away (a restart, a failover, a
 * connection the server ended), rather than a fault of the request: such a request is answered 503
 * with Retry-After at once, so a client or balancer retries (issue 25).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = (error as { cause?: unknown })?.cause ?? error;
  const { code, errno } = (e ?? {}) as { code?: string; errno?: string };
  const c = code ?? errno ?? "";
  return (
    [
      "CONNECT_TIMEOUT",
      "CONNECTION_CLOSED",
      "CONNECTION_ENDED",
      "CONNECTION_DESTROYED",
      "ECONNREFUSED",
      "ECONNRESET",
      "EPIPE",
      "ETIMEDOUT",
      "ENOTFOUND",
      "EHOSTUNREACH",
    ].includes(c) ||
    /^08/.test(c) || // connection exception
    // admin shutdown, crash shutdown, cannot connect now, too many connections; and a write that reached
    // a standby (a node demoted under a pooler's open connection): the primary is elsewhere, try again
    ["57P01", "57P02", "57P03", "53300", "25006"].includes(c)
  );
}

export const DATABASE_RETRY_AFTER_S = 5;

/** When a request last found the database unreachable (ms since the epoch; 0: never): background writers hold back after it. */
let databaseUnavailableAt = 0;
export const lastDatabaseOutage = () => databaseUnavailableAt;

export function toErrorResponse(error: unknown): Response {
  if (error instanceof Response) return error;
  if (error instanceof ApiError) return errorResponse(error.status, error.message, error.headers);
  if (error instanceof z.ZodError) return errorResponse(400, describeZodError(error));
  if (isDatabaseUnavailable(error)) {
    databaseUnavailableAt = Date.now();
    console.error("[api] database unavailable:", (error as Error).message);
    return errorResponse(503, "The service is briefly unavailable; try again shortly", {
      "Retry-After": String(DATABASE_RETRY_AFTER_S),
    });
  }
  console.error("[api] unexpected error", error);
  return errorResponse(500, "Internal server error");
}

export async function runHandler(handler: Handler, args: LoaderFunctionArgs | ActionFunctionArgs): Promise<Response> {
  try {
    const result = await handler(args);
    if (result instanceof Response) return result;
    return json(result ?? null);
  } catch (error) {
    return toErrorResponse(error);
  }
}

/** A JSON resource route: one handler per method; any other method answers 405 in JSON. */
export function apiRoute(handlers: Partial<Record<Method, Handler>>) {
  const allowed = Object.keys(handlers).join(", ");
  const dispatch = (args: LoaderFunctionArgs | ActionFunctionArgs) => {
    const method = args.request.method.toUpperCase() as Method;
    const handler = handlers[method] ?? (method === ("HEAD" as Method) ? handlers.GET : undefined);
    if (!handler) return errorResponse(405, `Method ${method} not allowed; use ${allowed}`, { Allow: allowed });
    return runHandler(handler, args);
  };
  return { loader: dispatch, action: dispatch };
}

/** page and limit as contract section 6: positive integers, limit clamped to the maximum. */
/**
 * `page` and `limit` of a list, checked (contract 6). With `cursorKey` (an area whose lists page by
 * cursor: the App API), `after` too: sent instead of `page`, never with it (400); the list checks
 * the token itself (paging.server.ts), as only it knows whose list it is.
 */
export function parsePagination(
  url: URL,
  defaults: { limit: number; max: number } = { limit: 50, max: 100 },
  cursorKey?: string,
): { page: number; limit: number; offset: number; cursor?: { after: string | null; key: string } } {
  const read = (name: string, fallback: number) => {
    const raw = url.searchParams.get(name);
    if (raw === null) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw)))
      throw new ApiError(400, `${name} must be a positive integer`);
    return Number(raw);
  };
  const page = read("page", 1);
  const limit = Math.min(read("limit", defaults.limit), defaults.max);
  if (cursorKey === undefined) return { page, limit, offset: (page - 1) * limit };
  const after = url.searchParams.get("after");
  if (after !== null && url.searchParams.has("page"))
    throw new ApiError(400, "Send either page or after (a nextCursor), not both");
  if (after !== null && (after === "" || after.length > 512))
    throw new ApiError(400, "after is not a cursor of this list");
  return { page, limit, offset: (page - 1) * limit, cursor: { after, key: cursorKey } };
}

export function paginated<T>(data: T[], total: number, p: { page: number; limit: number }) {
  return { data, total, page: p.page, limit: p.limit };
}

/** The App API's page (contract 6): `{data, total, page, limit, nextCursor}`; `page` is the cursor's page when one was sent. */
export function cursorPaginated<T>(
  data: T[],
  found: { total: number; nextCursor: string | null; page?: number },
  p: { page: number; limit: number },
) {
  return { data, total: found.total, page: found.page ?? p.page, limit: p.limit, nextCursor: found.nextCursor };
}

/** The loader and action of a JSON area's splat route: the contract's 404 body. */
export const jsonNotFound = {
  loader: ({ request }: LoaderFunctionArgs) =>
    errorResponse(404, `No route matches ${request.method} ${new URL(request.url).pathname}`),
  action: ({ request }: ActionFunctionArgs) =>
    errorResponse(404, `No route matches ${request.method} ${new URL(request.url).pathname}`),
};

export type SendEvent = (event: string, data: unknown) => void;

/**
 * A text/event-stream answer (`storefront-apps listen`, the live logs): `open(send)` starts what
 * feeds it and gives back how to stop that; the client going away, or a send to a closed stream,
 * stops it once.
 */
export function eventStreamResponse(
  request: Request,
  open: (send: SendEvent) => Promise<() => void | Promise<void>>,
): Response {
  const encoder = new TextEncoder();
  let stop: (() => void | Promise<void>) | null = null;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    void stop?.();
  };
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send: SendEvent = (event, data) => {
        try {
          controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
        } catch {
          end(); // the stream is closed
        }
      };
      stop = await open(send);
      if (ended) void stop();
      request.signal.addEventListener("abort", () => {
        end();
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      });
    },
    cancel() {
      end();
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store, no-transform",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    },
  });
}
