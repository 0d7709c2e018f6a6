/**
 * The JSON areas (/app-api, /webhooks, /developer, …) are resource routes: no document, no parent
 * loaders, no hydration. Remix's request pipeline still matched each request against the whole
 * route tree by flattening and ranking it again (a quarter of the CPU of an App API call, see
 * docs/performance.md). This table is built once from the same route modules, ranks them the way
 * Remix does (@remix-run/router computeScore), and calls the matched route's loader or action
 * directly. Anything it does not know (a page, a `?_data=` request, a method the module does not
 * export) goes on to Remix unchanged.
 */
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { ServerBuild } from "@remix-run/node";
import {
  errorBody,
  isMultipart,
  JsonResponse,
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
  return {
    size: table.length,
    has: (routeId: string) => table.some((e) => e.route.id === routeId),
    match(pathname: string): { route: ServerRoute; params: Record<string, string> } | null {
      const decoded = decodePath(pathname);
      for (const entry of table) {
        const m = entry.regex.exec(decoded);
        if (!m) continue;
        const params: Record<string, string> = {};
        entry.params.forEach((name, i) => (params[name] = (m[i + 1] ?? "").replace(/%2F/g, "/")));
        return { route: entry.route, params };
      }
      return null;
    },
  };
}

/** Express middleware answering the JSON areas' resource routes without Remix's document pipeline. */
export function serveJsonRoutes(build: ServerBuild, prefixes: string[], getContext: () => unknown) {
  const table = jsonRouteTable(build, prefixes);
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (!prefixes.some((p) => req.path === p || req.path.startsWith(p + "/")) || req.url.includes("_data="))
      return next();
    const found = table.match(req.path);
    const method = req.method.toUpperCase();
    const handler = (found &&
      (method === "GET" || method === "HEAD" ? found.route.module.loader : found.route.module.action)) as
      Handler | undefined;
    if (!found || !handler) return next();
    void (async () => {
      try {
        // (a Host no URL can be made of was refused before routing, runtime/web.server.ts)
        // an event stream (storefront-apps listen, decision 023) learns through its signal that the client left
        const stream = method === "GET" && (req.get("Accept") ?? "").includes("text/event-stream");
        const request = await toRequest(req, stream ? closeSignal(res) : undefined);
        const result = await handler({ request, params: found.params, context: getContext() });
        await send(res, result instanceof Response ? result : Response.json(result ?? null));
      } catch (error) {
        if (error instanceof Response) return send(res, error);
        console.error("[web] request failed", error);
        if (!res.headersSent) res.status(500).json(errorBody(500, "Internal server error"));
      }
    })().catch((error) => {
      console.error("[web] could not answer", error);
      if (!res.headersSent) res.status(500).end();
    });
  };
}

/**
 * The Fetch request of an Express request, like @remix-run/express's createRemixRequest but without
 * an abort signal (no JSON handler uses one, and it costs an AbortController per request).
 */
const CLIENT_ADDRESS = "x-platform-client-address";

function closeSignal(res: ExpressResponse): AbortSignal {
  const controller = new AbortController();
  res.on("close", () => controller.abort());
  return controller.signal;
}

async function toRequest(req: ExpressRequest, signal?: AbortSignal): Promise<globalThis.Request> {
  const host = req.get("X-Forwarded-Host") ?? req.get("host") ?? "localhost";
  const port = /:(\d+)$/.exec(host)?.[1];
  const url = `${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`;
  const headers = new Headers();
  const raw = req.rawHeaders;
  // the client's own X-Platform-Client-Address is dropped: only the address the socket saw counts (sign-in throttling)
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i].toLowerCase() !== CLIENT_ADDRESS) headers.append(raw[i], raw[i + 1]);
  // the address web.server.ts worked out (the socket's peer, or X-Forwarded-For from a trusted proxy)
  const address = req.headers[CLIENT_ADDRESS];
  headers.set(CLIENT_ADDRESS, typeof address === "string" ? address : (req.socket.remoteAddress ?? "unknown"));
  if (req.method === "GET" || req.method === "HEAD") return new Request(url, { method: req.method, headers, signal });
  // A JSON body is read here, up to the size limit, and handed over as bytes: no stream bridged
  // from Node's request through web streams, and readBodyText takes the text without reading
  // (issue 16: that bridging was a tenth of an order's CPU). A larger body is drained a little (so
  // the client reads our answer, not a reset) and readBodyText answers 413 as before.
  // An image upload (multipart, decision 060) may be larger, and is not text.
  const multipart = isMultipart(req.get("Content-Type"));
  const limit = multipart ? MAX_MULTIPART_BODY_BYTES : MAX_BODY_BYTES;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) break;
    chunks.push(chunk);
  }
  if (size > limit) {
    req.on("data", (more: Buffer) => {
      size += more.length;
      if (size > (multipart ? 4 * limit : 16 * MAX_BODY_BYTES)) req.socket.destroy();
    });
    req.resume();
    const request = new Request(url, { method: req.method, headers });
    readBodies.set(request, null);
    return request;
  }
  const body = Buffer.concat(chunks, size);
  const request = new Request(url, { method: req.method, headers, body: size ? body : undefined });
  if (!multipart) readBodies.set(request, body.toString("utf8"));
  return request;
}

async function send(res: ExpressResponse, response: Response) {
  res.status(response.status);
  if (response.statusText) res.statusMessage = response.statusText;
  // the route's own headers replace the defaults set before routing (Cache-Control); cookies add up
  for (const [key, value] of response.headers) {
    if (key === "set-cookie") res.append(key, value);
    else res.setHeader(key, value);
  }
  // our JSON answers carry their text: no need to read it back through a stream
  if (response instanceof JsonResponse) res.end(response.jsonText);
  else if (response.body && response.headers.get("Content-Type")?.startsWith("text/event-stream")) {
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
