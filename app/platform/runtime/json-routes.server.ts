/**
 * The JSON areas (/app-api, /webhooks, /developer, …) are resource routes: no document, no parent
 * loaders, no hydration. Remix's request pipeline still matched each request against the whole
 * route tree by flattening and ranking it again (a quarter of the CPU of an App API call, see
 * docs/performance.md). This table is built once from the same route modules, ranks them the way
 * Remix does (@remix-run/router computeScore), and calls the matched route's loader or action
 * directly. Anything it does not know (a page, a `?_data=` request, a method the module does not
 * export) goes on to Remix unchanged.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { ServerBuild } from "@remix-run/node";
import {
  errorBody,
  isMultipart,
  jsonTextOf,
  MAX_BODY_BYTES,
  MAX_MULTIPART_BODY_BYTES,
  readBodies,
} from "../core/http.server";

type ServerRoute = ServerBuild["routes"][string];
type Compiled = { route: ServerRoute; regex: RegExp; params: string[]; score: number; order: number };
type Handler = (args: {
  request: Request;
  params: Record<string, string>;
  context: unknown;
}) => Promise<unknown> | unknown;

const PARAM = /^:[\w-]+$/;

/** Remix's ranking: more segments, static over dynamic, index routes up, splats down. */
export function routeScore(path: string, index: boolean): number {
  const segments = path.split("/");
  let score = segments.length + (segments.includes("*") ? -2 : 0) + (index ? 2 : 0);
  for (const s of segments) if (s !== "*") score += PARAM.test(s) ? 3 : s === "" ? 1 : 10;
  return score;
}

/** The same regular expression as @remix-run/router's compilePath(path, false, true). */
function compile(path: string): { regex: RegExp; params: string[] } {
  const params: string[] = [];
  let source =
    "^" +
    path
      .replace(/\/*\*?$/, "")
      .replace(/^\/*/, "/")
      .replace(/[\\.*+^${}|()[\]]/g, "\\$&")
      .replace(/\/:([\w-]+)/g, (_m, name: string) => {
        params.push(name);
        return "/([^\\/]+)";
      });
  if (path.endsWith("*")) {
    params.push("*");
    source += "(?:\\/(.+)|\\/*)$";
  } else source += "\\/*$";
  return { regex: new RegExp(source, "i"), params };
}

function fullPath(routes: ServerBuild["routes"], route: ServerRoute): string {
  const parts: string[] = [];
  for (let r: ServerRoute | undefined = route; r; r = r.parentId ? routes[r.parentId] : undefined)
    if (r.path) parts.unshift(r.path);
  return "/" + parts.join("/");
}

/** Like @remix-run/router's decodePath: each segment decoded, an encoded slash kept; malformed stays raw. */
function decodePath(value: string): string {
  try {
    return value
      .split("/")
      .map((v) => decodeURIComponent(v).replace(/\//g, "%2F"))
      .join("/");
  } catch {
    return value;
  }
}

export function jsonRouteTable(build: ServerBuild, prefixes: string[]) {
  const table: Compiled[] = [];
  let order = 0;
  for (const route of Object.values(build.routes)) {
    if (!route || route.module.default) continue; // pages go through Remix
    const path = fullPath(build.routes, route);
    if (!prefixes.some((p) => path === p || path.startsWith(p + "/"))) continue;
    table.push({ route, ...compile(path), score: routeScore(path, Boolean(route.index)), order: order++ });
  }
  table.sort((a, b) => b.score - a.score || a.order - b.order);
  // the answers for the addresses asked most (an app calls the same few again and again): trying
  // each route's expression in turn was a twentieth of an App API call's CPU; the memo is dropped
  // whole when full and keeps short addresses only, so addresses with ids in them cannot grow it
  const memo = new Map<string, { route: ServerRoute; params: Record<string, string> } | null>();
  return {
    size: table.length,
    memoSize: () => memo.size,
    has: (routeId: string) => table.some((e) => e.route.id === routeId),
    match(pathname: string): { route: ServerRoute; params: Record<string, string> } | null {
      const known = memo.get(pathname);
      if (known !== undefined) return known && { route: known.route, params: { ...known.params } };
      const found = matchIn(pathname);
      if (pathname.length > 200) return found;
      if (memo.size >= 1_000) memo.clear();
      memo.set(pathname, found && { route: found.route, params: { ...found.params } });
      return found;
    },
  };
  function matchIn(pathname: string): { route: ServerRoute; params: Record<string, string> } | null {
    const decoded = decodePath(pathname);
    for (const entry of table) {
      const m = entry.regex.exec(decoded);
      if (!m) continue;
      const params: Record<string, string> = {};
      entry.params.forEach((name, i) => (params[name] = (m[i + 1] ?? "").replace(/%2F/g, "/")));
      return { route: entry.route, params };
    }
    return null;
  }
}

/** A request a JSON route answers: its path, its route's handler and the path's parameters. */
export type JsonRouteMatch = { path: string; handler: Handler; params: Record<string, string> };

/**
 * The JSON areas' resource routes, served without Remix's document pipeline and without Express:
 * `find` says whether a route answers a request (null: a page, a `?_data=` request, an address
 * no route matches, a method the module does not export, which go on to Express and Remix
 * unchanged), `serve` answers it on Node's own request and response. The web server calls them
 * in front of Express (web.server.ts), after the same guards Express runs; Express's per-request
 * work (its prototypes on every request, the middleware chain) was a tenth of an App API call's CPU
 * (docs/performance.md, session 14).
 */
export function jsonRoutes(build: ServerBuild, prefixes: string[], getContext: () => unknown) {
  const table = jsonRouteTable(build, prefixes);
  return {
    find(req: IncomingMessage): JsonRouteMatch | null {
      const url = req.url ?? "";
      if (!url.startsWith("/") || url.includes("_data=")) return null; // (absolute-form URLs: Express)
      const q = url.indexOf("?");
      const path = q < 0 ? url : url.slice(0, q);
      if (!prefixes.some((p) => path === p || path.startsWith(p + "/"))) return null;
      const found = table.match(path);
      const method = (req.method ?? "GET").toUpperCase();
      const handler = (found &&
        (method === "GET" || method === "HEAD" ? found.route.module.loader : found.route.module.action)) as
        Handler | undefined;
      return found && handler ? { path, handler, params: found.params } : null;
    },
    serve(req: IncomingMessage, res: ServerResponse, { handler, params }: JsonRouteMatch): void {
      void (async () => {
        try {
          // (a Host no URL can be made of was refused before routing, web.server.ts)
          // an event stream (storefront-apps listen, decision 023) learns through its signal that the client left
          const stream = req.method === "GET" && (req.headers.accept ?? "").includes("text/event-stream");
          const request = await toRequest(req, stream ? closeSignal(res) : undefined);
          const result = await handler({ request, params, context: getContext() });
          await send(res, result instanceof Response ? result : Response.json(result ?? null));
        } catch (error) {
          if (error instanceof Response) return send(res, error);
          console.error("[web] request failed", error);
          if (!res.headersSent) sendJson(res, 500, errorBody(500, "Internal server error"));
        }
      })().catch((error) => {
        console.error("[web] could not answer", error);
        if (!res.headersSent) res.writeHead(500).end();
      });
    },
  };
}

/** The same, as Express middleware (the orders export's download routes, which stay behind Express's compression). */
export function serveJsonRoutes(build: ServerBuild, prefixes: string[], getContext: () => unknown) {
  const routes = jsonRoutes(build, prefixes, getContext);
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const found = routes.find(req);
    if (found) routes.serve(req, res, found);
    else next();
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
  });
  res.end(text);
}

/**
 * The Fetch request of a Node request, like @remix-run/express's createRemixRequest (the URL from
 * the Host header and the socket's protocol, as Express works them out with `trust proxy` off) but
 * without an abort signal (no JSON handler uses one, and it costs an AbortController per request).
 */
const CLIENT_ADDRESS = "x-platform-client-address";

function closeSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.on("close", () => controller.abort());
  return controller.signal;
}

/** Express's req.hostname with `trust proxy` off: the Host header without its port. */
function hostnameOf(host: string): string {
  const offset = host[0] === "[" ? host.indexOf("]") + 1 : 0;
  const index = host.indexOf(":", offset);
  return index !== -1 ? host.substring(0, index) : host;
}

async function toRequest(req: IncomingMessage, signal?: AbortSignal): Promise<globalThis.Request> {
  const forwarded = req.headers["x-forwarded-host"];
  const host = (typeof forwarded === "string" ? forwarded : undefined) ?? req.headers.host ?? "localhost";
  const port = /:(\d+)$/.exec(host)?.[1];
  const protocol = (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
  const url = `${protocol}://${req.headers.host ? hostnameOf(req.headers.host) : ""}${port ? `:${port}` : ""}${req.url}`;
  // name/value pairs, which the Request copies into its own Headers (a Headers built here first would be copied again)
  const headers: [string, string][] = [];
  const raw = req.rawHeaders;
  // the client's own X-Platform-Client-Address is dropped: only the address the socket saw counts (sign-in throttling)
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i].toLowerCase() !== CLIENT_ADDRESS) headers.push([raw[i], raw[i + 1]]);
  // the address web.server.ts worked out (the socket's peer, or X-Forwarded-For from a trusted proxy)
  const address = req.headers[CLIENT_ADDRESS];
  headers.push([CLIENT_ADDRESS, typeof address === "string" ? address : (req.socket.remoteAddress ?? "unknown")]);
  if (req.method === "GET" || req.method === "HEAD") return new Request(url, { method: req.method, headers, signal });
  // A JSON body is read here, up to the size limit, and handed over as bytes: no stream bridged
  // from Node's request through web streams, and readBodyText takes the text without reading
  // (issue 16: that bridging was a tenth of an order's CPU). A larger body is drained a little (so
  // the client reads our answer, not a reset) and readBodyText answers 413 as before.
  // An image upload (multipart, decision 060) may be larger, and is not text.
  const multipart = isMultipart(req.headers["content-type"]);
  const limit = multipart ? MAX_MULTIPART_BODY_BYTES : MAX_BODY_BYTES;
  const body = await readBodyUpTo(req, limit);
  if (!body) {
    let size = limit;
    req.on("data", (more: Buffer) => {
      size += more.length;
      if (size > (multipart ? 4 * limit : 16 * MAX_BODY_BYTES)) req.socket.destroy();
    });
    req.resume();
    const request = new Request(url, { method: req.method, headers });
    readBodies.set(request, null);
    return request;
  }
  const request = new Request(url, { method: req.method, headers, body: body.length ? body : undefined });
  if (!multipart) readBodies.set(request, body.toString("utf8"));
  return request;
}

/**
 * A request's body, read whole while it is at most `limit` bytes; null once it is past it (what
 * follows is left unread, paused, for the caller to drain or refuse). Shared by the JSON fast path
 * and the storefront's pages (storefront/pages.server.ts).
 */
export async function readBodyUpTo(req: IncomingMessage, limit: number): Promise<Buffer<ArrayBuffer> | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

async function send(res: ServerResponse, response: Response) {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  // the route's own headers replace the defaults set before routing (Cache-Control); cookies add up
  const cookies = response.headers.getSetCookie();
  for (const [key, value] of response.headers) if (key !== "set-cookie") res.setHeader(key, value);
  if (cookies.length) {
    const before = res.getHeader("Set-Cookie");
    res.setHeader("Set-Cookie", [
      ...(before === undefined ? [] : Array.isArray(before) ? before : [String(before)]),
      ...cookies,
    ]);
  }
  // our JSON answers carry their text: no need to read it back through a stream
  const text = jsonTextOf(response);
  if (text !== undefined) {
    // with its length: compression wraps `end`, and an answer it leaves as it is would go out chunked
    // (the middleware drops the length of an answer it encodes)
    res.setHeader("Content-Length", Buffer.byteLength(text));
    res.end(text);
  } else if (response.body && response.headers.get("Content-Type")?.startsWith("text/event-stream")) {
    // an event stream goes out chunk by chunk, as it is written, until either side closes it
    res.flushHeaders();
    const reader = response.body.getReader();
    res.on("close", () => void reader.cancel().catch(() => {}));
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done || res.destroyed) break;
      res.write(value);
    }
    res.end();
  } else if (response.body && /^attachment\b/i.test(response.headers.get("Content-Disposition") ?? "")) {
    // a download (an orders export: hundreds of MB) goes out at the client's pace: the next chunk is
    // read only once the socket took the last one. Remix's own adapter writes a body without waiting
    // (writeReadableStreamToWritable), so a slow client made the server hold the whole file.
    await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), res).catch(() => {
      // the client went away: the pipeline cancelled the body (no more chunks are read)
    });
  } else res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
}
