/**
 * The storefront's pages over HTTP (issue 17, decision 021).
 *
 * - **Conditional requests before any loader runs.** A page every anonymous visitor sees alike
 *   (storefront/http-cache.ts) is asked for: the shop is read once (storefront/site.server.ts
 *   `loadShop`: the business, its content version, navigation, app blocks and embeds), the ETag is
 *   made from the content version, and a matching If-None-Match is answered 304 at once. Otherwise
 *   the ETag travels to the renderer in an internal request header (entry.server.tsx sets the
 *   headers of a shared page) and the shop read travels to the loaders in the load context, so no
 *   loader reads it again.
 * - **A Remix handler of the storefront's routes alone.** Remix matches a request against its whole
 *   route tree several times per page (flattening and ranking about a hundred routes each time: a
 *   fifth of a storefront page's CPU in the profile). The storefront's pages are served by a
 *   handler built from the same build with only the root, the storefront's routes and the not-found
 *   route, so that each match ranks a dozen. Route ids, modules and the assets are the build's own.
 * - **Requests and answers without web streams** (issue 45, point 4: the storefront checkout). The
 *   form's body is read whole and handed to Remix as bytes, and a page or a redirect goes out in one
 *   write with its Content-Length (remixRequest, sendResponse); the storefront's resource route (the
 *   checkout's quote) is answered straight by its loader, as the JSON areas' are.
 *
 * The ETag is read before the page's content, so a page is never labelled newer than what it shows
 * (a change that commits in between shows on a page still labelled with the older version, which the
 * next request replaces).
 */
import { createHash } from "node:crypto";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { createRequestHandler, writeReadableStreamToWritable, type ServerBuild } from "@remix-run/node";
import type { Database } from "../db/client";
import type { Env } from "../app/platform/core/env.server";
import { isStorefrontPath } from "../app/platform/core/areas";
import { isMultipart, MAX_BODY_BYTES, MAX_MULTIPART_BODY_BYTES } from "../app/platform/core/http.server";
import { readBodyUpTo, serveJsonRoutes } from "../app/platform/runtime/json-routes.server";
import { loadShop, type Shop } from "./site.server";
import {
  PRIVATE_CACHE_CONTROL,
  SHARED_CACHE_CONTROL,
  SHARED_VARY,
  STOREFRONT_ETAG_HEADER,
  etagMatches,
  hasShopperCookie,
  sharedPageSlug,
} from "./http-cache";

/** The routes a storefront page can match: the root, the storefront's own, and the not-found splat. */
const isStorefrontRoute = (id: string) => id === "root" || id === "routes/$" || id.startsWith("routes/s.");

/** The build with only the storefront's routes (and the server's and the browser's manifests to match). */
export function storefrontBuild(build: ServerBuild): ServerBuild {
  const pick = <T>(routes: Record<string, T>) =>
    Object.fromEntries(Object.entries(routes).filter(([id]) => isStorefrontRoute(id)));
  return { ...build, routes: pick(build.routes), assets: { ...build.assets, routes: pick(build.assets.routes) } };
}

/** A strong ETag: the content version, and a digest of everything else the bytes depend on. */
export function storefrontEtag(seed: {
  buildVersion: string;
  env: Pick<Env, "publicUrl" | "storefrontUrl">;
  shop: Pick<Shop, "contentVersion"> & { business: { id: string } };
  url: string;
}): string {
  const digest = createHash("sha256")
    .update(
      [
        seed.buildVersion,
        seed.env.publicUrl,
        seed.env.storefrontUrl,
        seed.shop.business.id,
        seed.shop.contentVersion,
        seed.url,
      ].join("\n"),
    )
    .digest("base64url")
    .slice(0, 22);
  return `"${seed.shop.contentVersion}-${digest}"`;
}

/**
 * The Fetch request of an Express request, as @remix-run/express's createRemixRequest makes it (the
 * same URL, headers and abort signal), but with the body read first: a storefront form is a few
 * hundred bytes, and handing it over as bytes spares bridging Node's stream through a web stream
 * for `request.formData()` (docs/performance.md, session 14). A body larger than the web layer lets
 * through (web.server.ts refuses a declared one) is null: the answer is a 413.
 */
async function remixRequest(req: ExpressRequest, res: ExpressResponse): Promise<Request | null> {
  const [, forwardedPort] = req.get("X-Forwarded-Host")?.split(":") ?? [];
  const [, hostPort] = req.get("host")?.split(":") ?? [];
  const port = [Number.parseInt(forwardedPort, 10), Number.parseInt(hostPort, 10)].find(Number.isSafeInteger) ?? "";
  const url = new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
  const headers = new Headers();
  for (const [key, values] of Object.entries(req.headers)) {
    if (!values) continue;
    if (Array.isArray(values)) for (const value of values) headers.append(key, value);
    else headers.set(key, values);
  }
  // loaders and actions are aborted when the answer can no longer be written (`close` before `finish`)
  let controller: AbortController | null = new AbortController();
  const signal = controller.signal;
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  if (req.method === "GET" || req.method === "HEAD")
    return new Request(url.href, { method: req.method, headers, signal });
  const limit = isMultipart(req.get("Content-Type")) ? MAX_MULTIPART_BODY_BYTES : MAX_BODY_BYTES;
  const body = await readBodyUpTo(req, limit);
  if (!body) return null;
  return new Request(url.href, { method: req.method, headers, signal, body: body.length ? body : undefined });
}

/**
 * Writes Remix's answer as @remix-run/express's sendRemixResponse does (status, every header
 * appended), but a rendered page or a redirect goes out in one write with its length, not as
 * chunks read back from a web stream; an event stream still goes out as it is written.
 */
async function sendResponse(res: ExpressResponse, response: Response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (!response.body) return void res.end();
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) {
    res.flushHeaders();
    return writeReadableStreamToWritable(response.body, res);
  }
  const body = Buffer.from(await response.arrayBuffer());
  // its length, unless the compression (runtime/compression.server.ts) replaces it by an encoding's
  res.setHeader("Content-Length", body.length);
  res.end(body);
}

type ShopRequest = ExpressRequest & { storefrontShop?: Shop; sharedPage?: boolean };

export function storefrontPages(options: {
  build: ServerBuild;
  db: Database;
  /** a replica for the shared pages (no cart, GET): what every visitor sees alike may lag (core/context.ts) */
  readDb?: Database;
  env: Env;
  mode: "production" | "development";
}) {
  const { build, db, env } = options;
  const readDb = options.readDb ?? db;
  const remix = createRequestHandler(storefrontBuild(build), options.mode);
  const handler = async (req: ExpressRequest, res: ExpressResponse) => {
    const request = await remixRequest(req, res);
    if (!request) {
      res.setHeader("Connection", "close");
      res.status(413).type("text/plain").send(`Request body exceeds ${MAX_BODY_BYTES} bytes`);
      return;
    }
    // a shared page reads the replica; a shopper with a cart and every form post read the primary
    const shared = (req as ShopRequest).sharedPage === true;
    const context = { db: shared ? readDb : db, env, storefrontShop: (req as ShopRequest).storefrontShop ?? null };
    await sendResponse(res, await remix(request, context));
  };
  // the storefront's resource routes (the checkout page's quote, which its fetcher asks for whenever
  // the delivery method changes): straight to their loader, as the JSON areas' are (json-routes.server.ts);
  // what is no resource route (every page, a `?_data=` request) goes on to the handler
  const resources = serveJsonRoutes(build, ["/s"], () => ({ db, env, storefrontShop: null }));
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (!isStorefrontPath(req.path)) return next();
    delete req.headers[STOREFRONT_ETAG_HEADER];
    // whatever a storefront answer does not mark as shared (entry.server.tsx) no cache keeps: redirects and errors too
    const writeHead = res.writeHead;
    res.writeHead = function (this: ExpressResponse, ...args: Parameters<typeof writeHead>) {
      if (!this.hasHeader("Cache-Control")) this.setHeader("Cache-Control", PRIVATE_CACHE_CONTROL);
      return writeHead.apply(this, args);
    } as typeof writeHead;
    const serve = () =>
      resources(req, res, () =>
        handler(req, res).catch((error: unknown) => {
          console.error("[web] storefront request failed", error);
          if (!res.headersSent)
            res.status(500).type("text/plain").send("Something went wrong on our side. Please try again.");
        }),
      );
    const slug = req.method === "GET" || req.method === "HEAD" ? sharedPageSlug(req.path) : null;
    if (slug === null || hasShopperCookie(req.headers.cookie)) return void serve();
    (req as ShopRequest).sharedPage = true;
    loadShop(readDb, slug).then(
      (shop) => {
        if (shop) {
          const etag = storefrontEtag({ buildVersion: build.assets.version, env, shop, url: req.originalUrl });
          if (etagMatches(req.headers["if-none-match"], etag)) {
            res.status(304).set({ ETag: etag, "Cache-Control": SHARED_CACHE_CONTROL, Vary: SHARED_VARY }).end();
            req.resume();
            return;
          }
          req.headers[STOREFRONT_ETAG_HEADER] = etag;
          (req as ShopRequest).storefrontShop = shop;
        }
        serve();
      },
      // the loaders read it again and answer as they do when the database is away
      () => serve(),
    );
  };
}
