/**
 * The HTTP server: Express in front of the Remix request handler. Used by `npm start`,
 * `npm run web` and the tests (which start it on port 0 against their own database).
 */
import { atBusinessClock } from "./platform/core/clock.server";
import { noteRequest } from "./platform/core/load.server";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { sql } from "drizzle-orm";
import express from "express";
import proxyaddr from "proxy-addr";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import type { Database } from "../db/client";
import type { Env } from "./platform/core/env.server";
import { errorBody, isMultipart, MAX_BODY_BYTES, MAX_MULTIPART_BODY_BYTES } from "./platform/core/http.server";
import { serveFile } from "./platform/files/serve.server";
import { jsonRoutes, serveJsonRoutes } from "./platform/runtime/json-routes.server";
import { storefrontPages } from "../storefront/pages.server";
import { compress } from "./platform/runtime/compression.server";
import { areaOf, DOWNLOAD_PREFIXES, isJsonPath, JSON_PREFIXES } from "./platform/core/areas";
import { closeUsage } from "./platform/versions/usage.server";
import { closeRequestLog } from "./platform/devtools/logs.server";

export { JSON_PREFIXES, isJsonPath };

/** Host values seen valid (a server answers a handful of names; dropped whole when full). */
const validHosts = new Set<string>();

/** Whether a Host header value (absent is fine: Node answers that itself) can be the host of a URL. */
function validHost(value: string | string[] | undefined): boolean {
  if (value === undefined || (typeof value === "string" && validHosts.has(value))) return true;
  if (!checkHost(value)) return false;
  if (validHosts.size >= 100) validHosts.clear();
  validHosts.add(value as string);
  return true;
}

function checkHost(value: string | string[]): boolean {
  // a name or address and a port: nothing that could add a path, a query or credentials to the URL
  if (typeof value !== "string" || !/^[A-Za-z0-9._~-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(value))
    return false;
  try {
    return new URL(`http://${value}/`).host !== "";
  } catch {
    return false;
  }
}

/** Whether every percent-encoding of a path decodes to UTF-8 text (what the router needs of it). */
export function decodablePath(path: string): boolean {
  if (!path.includes("%")) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * One log line at most per `intervalMs` for a kind of refused request: the first one seen, then, a
 * window later, the next one with how many came in between. Nothing else is written, however many arrive.
 */
export function rateLimitedLog(what: string, intervalMs = 60_000, write = (line: string) => console.warn(line)) {
  let quietUntil = 0;
  let unlogged = 0;
  return {
    note(example: string) {
      const t = Date.now();
      if (t < quietUntil) {
        unlogged++;
        return;
      }
      // the example is a request line: printable ASCII, cut short, so the log keeps one line of bounded size
      const shown = example.replace(/[^\x20-\x7e]/g, "?").slice(0, 120);
      write(`[web] ${what} (${shown})${unlogged ? `; ${unlogged} more since the last such line` : ""}`);
      quietUntil = t + intervalMs;
      unlogged = 0;
    },
  };
}

const malformedLog = rateLimitedLog("400 for an address with a malformed percent-encoding");

/**
 * Refuses a request before routing: the contract's error body on the JSON areas (RFC 6749's on the
 * token endpoint, contract section 4), plain text on pages; the unread body is discarded.
 */
function refuse(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  path: string,
  status: number,
  message: string,
  options: { json?: boolean } = {},
) {
  const json = options.json || isJsonPath(path);
  const body = json
    ? JSON.stringify(
        path === "/oauth/token" ? { error: "invalid_request", error_description: message } : errorBody(status, message),
      )
    : message;
  res.writeHead(status, {
    "Content-Type": json ? "application/json; charset=utf-8" : "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(body);
  req.resume();
}

export type WebServer = { url: string; port: number; server: http.Server; close(): Promise<void> };

export const BUILD_PATH = path.resolve("build/index.js");

export async function loadBuild(): Promise<ServerBuild> {
  return (await import(pathToFileURL(BUILD_PATH).href)) as ServerBuild;
}

/** The site builder's live preview, `routes/s.$businessSlug_.preview.$pageSlug`. */
const PREVIEW_PATH = /^\/s\/[^/]+\/preview\/[^/]+\/?$/;

export async function createWebServer(options: {
  db: Database;
  /** a replica for the reads core/context.ts's replicaOf allows (READ_DATABASE_URL); none: the primary */
  readDb?: Database;
  env: Env;
  port?: number;
  host?: string;
  build?: ServerBuild;
}): Promise<WebServer> {
  const { db, env, readDb } = options;
  const build = options.build ?? (await loadBuild());
  const app = express();
  app.disable("x-powered-by");
  // handlers read the query from the request URL; Express need not parse it into req.query
  app.set("query parser", false);

  // The client's address (sign-in throttling): the socket's peer, or, when that peer is a trusted proxy
  // (TRUSTED_PROXIES), the nearest address in X-Forwarded-For that is not itself a trusted proxy. A
  // client cannot supply it: an X-Forwarded-For from any other peer is ignored.
  const trusted = env.trustedProxies.length ? proxyaddr.compile(env.trustedProxies) : null;
  /**
   * Every request's guards, on Node's own request and response (the JSON fast path runs them in
   * front of Express, Express runs them for everything else): the client's address, the security
   * headers, the body limits, paths and hosts no handler can use, cross-site form posts. False:
   * the request was refused (answered here). A new guard goes here, not in an Express middleware,
   * or the JSON areas would skip it (decision 094).
   */
  const guard = (req: http.IncomingMessage, res: http.ServerResponse, path: string): boolean => {
    req.headers["x-platform-client-address"] =
      (trusted && req.socket.remoteAddress ? proxyaddr(req, trusted) : req.socket.remoteAddress) ?? "unknown";
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    if (env.isProduction) res.setHeader("Strict-Transport-Security", "max-age=31536000");
    // JSON answers carry merchants' and shoppers' data: no cache keeps them unless a route says otherwise
    if (isJsonPath(path)) res.setHeader("Cache-Control", "no-store");
    // Nothing may frame the platform's pages nor the storefront. The builder's live preview (decision
    // 017) is framed by the platform's origin, which its policy's frame-ancestors allows: X-Frame-Options
    // has no value for one other origin, so it is left out there rather than contradicting the policy.
    if (!PREVIEW_PATH.test(path) && !res.hasHeader("X-Frame-Options")) res.setHeader("X-Frame-Options", "DENY");
    const declared = Number(req.headers["content-length"] ?? 0);
    // an image upload (multipart: POST /merchant/files, the admin's product form and builder) may carry
    // a 5 MB file; past that it is the upload's own refusal, 400 (contract 20, decision 060)
    if (isMultipart(req.headers["content-type"]) && declared > MAX_MULTIPART_BODY_BYTES) {
      res.setHeader("Connection", "close");
      refuse(req, res, path, 400, "file: images may be at most 5 MB");
      return false;
    }
    if (declared > MAX_BODY_BYTES && !isMultipart(req.headers["content-type"])) {
      res.setHeader("Connection", "close");
      refuse(req, res, path, 413, `Request body exceeds ${MAX_BODY_BYTES} bytes`, { json: true });
      return false;
    }
    // A handler that answers without reading the body (a 404, a POST that takes none) leaves the rest
    // of it unread and the stream paused by Remix: the keep-alive connection would hang. Discard it.
    res.on("finish", () => {
      if (!req.complete) {
        req.removeAllListeners("data");
        req.resume();
      }
    });
    // A NUL character (%00) in the path or query cannot be stored or looked up in PostgreSQL text.
    if (/%00/.test(req.url ?? "")) {
      refuse(req, res, path, 400, "The address may not contain %00");
      return false;
    }
    // A path no one can decode (%FF, a cut-off %E0%A4%A, a lone %): answered here, before the router,
    // which would write a line per request about it (an attacker's way to fill the log); one line a minute at most.
    if (!decodablePath(path)) {
      malformedLog.note(`${req.method} ${path}`);
      refuse(req, res, path, 400, "The address has a malformed percent-encoding");
      return false;
    }
    // A Host (or X-Forwarded-Host) that no URL can be made of would fail every handler that builds the request's URL.
    if (!validHost(req.headers.host) || !validHost(req.headers["x-forwarded-host"])) {
      refuse(req, res, path, 400, "Malformed Host header");
      return false;
    }
    // Pages: a state-changing request from another site is refused before it reaches a form action
    // ("null", an opaque origin, too: Remix would refuse it with a 500)
    const origin = req.headers.origin;
    if (req.method !== "GET" && req.method !== "HEAD" && origin && !isJsonPath(path)) {
      let originHost = "";
      try {
        originHost = new URL(origin).host;
      } catch {
        originHost = "";
      }
      if (originHost !== req.headers.host) {
        refuse(req, res, path, 403, "Cross-site form submission refused");
        return false;
      }
    }
    return true;
  };

  app.use((req, res, next) => {
    if (guard(req, res, req.path)) next();
  });

  // brotli or gzip for every compressible answer of 1 KiB or more: pages, the JSON answers, /build (compression.server.ts)
  const compression = compress();
  app.use(compression);

  // Two origins (decision 013): a storefront page asked for on the platform's host, or a platform page on
  // the storefront's, moves (308, method and body kept) to the same path on the right origin. The
  // platform's session cookie is host-only, so it never reaches the storefront's host, where apps run script.
  app.use((req, res, next) => {
    const area = areaOf(req.path);
    if (area === "shared") return next();
    const target = new URL(area === "storefront" ? env.storefrontUrl : env.publicUrl);
    if ((req.headers.host ?? "").toLowerCase() === target.host) return next();
    res.redirect(308, target.origin + req.originalUrl);
    req.resume();
  });

  // the process and its database: 503 while the database cannot be reached, so that a balancer takes
  // this process out until it is back (issue 25); a check never waits more than 2 s
  app.get("/healthz", (_req, res) => {
    const started = Date.now();
    Promise.race([
      db.execute(sql`select 1`),
      new Promise((_, reject) => setTimeout(() => reject(new Error("timed out after 2 s")), 2_000).unref()),
    ]).then(
      () => res.set("Cache-Control", "no-store").json({ ok: true, database: { ok: true, ms: Date.now() - started } }),
      (e: Error) =>
        res
          .status(503)
          .set({ "Cache-Control": "no-store", "Retry-After": "5" })
          .json({ ok: false, database: { ok: false, error: e.message } }),
    );
  });
  // merchants' uploaded images, on the storefront origin only (decision 060)
  app.get("/files/:name", serveFile(db, readDb));
  // the JSON areas' resource routes are answered in front of Express (the server below); what they
  // decline (`?_data=`, an address no route matches) comes here and goes on to Remix
  // the orders export's status and download, straight to their loaders too: a file streams at the client's pace
  app.use(serveJsonRoutes(build, DOWNLOAD_PREFIXES, () => ({ db, env, readDb })));
  // storefront pages: answered 304 from the shop's content version, served by the storefront's routes alone (issue 17)
  app.use(storefrontPages({ build, db, readDb, env, mode: env.isProduction ? "production" : "development" }));
  app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
  app.use(express.static("public", { maxAge: "1h" }));

  const handler = createRequestHandler({
    build,
    mode: env.isProduction ? "production" : "development",
    getLoadContext: () => ({ db, env, readDb }),
  });
  // app.use, not app.all("*"): Express would decode the path as a route parameter and answer an
  // invalid percent-encoding (/developer/apps/%FF) with its own HTML error page and stack trace.
  app.use((req, res, next) => {
    Promise.resolve(handler(req, res, next)).catch((error) => {
      console.error("[web] request failed", error);
      if (!res.headersSent) res.status(500).json(errorBody(500, "Internal server error"));
    });
  });

  // the JSON areas' resource routes, straight to their loader or action, in front of Express (see
  // json-routes.server.ts): the same guards, compression when the client accepts an encoding; the
  // /healthz, /files and two-origin steps Express runs before them never apply to a JSON path
  const jsonAreas = jsonRoutes(build, JSON_PREFIXES, () => ({ db, env, readDb }));
  const server = http.createServer((req, res) => {
    // how busy the process is (core/load.server.ts): a sale's e-mails give way to it (decision 089)
    noteRequest();
    // every request runs in a clock scope: a guard that finds a developer's sandbox sets its own clock
    // there (core/clock.server.ts, contract 19); everywhere else it stays the platform's
    atBusinessClock(0, () => {
      const found = jsonAreas.find(req);
      if (!found) return void app(req, res);
      if (!guard(req, res, found.path)) return;
      if (!req.headers["accept-encoding"]) return jsonAreas.serve(req, res, found);
      compression(req as express.Request, res as express.Response, () => jsonAreas.serve(req, res, found));
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? env.port, options.host ?? "0.0.0.0", () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    server,
    // in-flight requests finish, then the API usage they counted is written (the pool closes after)
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5000).unref();
      });
      await closeUsage(options.db);
      await closeRequestLog(options.db);
    },
  };
}
