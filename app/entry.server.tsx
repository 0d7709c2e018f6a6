/**
 * Server rendering: the whole document is rendered at once (`renderToString`: loaders do not defer
 * and nothing suspends, so streaming would buy nothing, and rendering to a string costs about a sixth
 * less CPU than collecting a stream; issue 17). Every response gets a Content-Security-Policy: storefront pages one built
 * from the active embeds and blocks their layout loader returned, the platform's own pages the strict
 * nonce policy of page-csp.server.ts; the platform's pages are never stored by a cache.
 *
 * A storefront page every anonymous visitor sees alike (the storefront's HTTP layer gave it an ETag,
 * storefront/http-cache.ts) is rendered without a nonce, which would make each copy unique: its policy
 * allows its inline scripts by their SHA-256 instead, and it gets the ETag and Cache-Control for
 * shared caches (issue 17, decision 021). Every other storefront answer is `private, no-store`.
 */
import { randomBytes } from "node:crypto";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { NonceContext } from "./components/nonce";
import { inlineScriptHashes, storefrontCsp, type CspOrigins } from "./platform/runtime/csp.server";
import { needsOwnDocument, pageCspNeeds, platformPageCsp } from "./platform/runtime/page-csp.server";
import { isStorefrontPath } from "./platform/core/areas";
import {
  PRIVATE_CACHE_CONTROL,
  SHARED_CACHE_CONTROL,
  SHARED_VARY,
  STOREFRONT_ETAG_HEADER,
} from "../storefront/http-cache";

const STOREFRONT_LAYOUT = "routes/s.$businessSlug";
/** The site builder's live preview (decision 017), a storefront page of its own outside the layout. */
const STOREFRONT_PREVIEW = "routes/s.$businessSlug_.preview.$pageSlug";

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const context = remixContext.staticHandlerContext;
  const preview = context.matches.some((m) => m.route.id === STOREFRONT_PREVIEW);
  const storefront = !preview && isStorefrontPath(new URL(request.url).pathname);
  const layout = storefront ? (context.loaderData?.[STOREFRONT_LAYOUT] as { csp?: CspOrigins } | undefined) : undefined;
  // the same for every anonymous visitor: shared caches may keep it (no nonce, no cookie)
  const etag = storefront ? request.headers.get(STOREFRONT_ETAG_HEADER) : null;
  const shared = etag !== null && responseStatusCode === 200 && !responseHeaders.has("Set-Cookie");
  const nonce = shared ? undefined : randomBytes(16).toString("base64");
  if (preview) {
    // framed by the platform's own pages only (its error pages too, so the builder shows why), with
    // the frames of its app blocks and no embed's script; never cached; the token in its address
    // never leaves in a Referer
    const data = context.loaderData?.[STOREFRONT_PREVIEW] as { csp?: CspOrigins } | undefined;
    responseHeaders.set(
      "Content-Security-Policy",
      storefrontCsp(
        nonce!,
        { scriptOrigins: [], frameOrigins: data?.csp?.frameOrigins ?? [] },
        { frameAncestors: [loadContext.env.publicUrl] },
      ),
    );
    responseHeaders.set("Cache-Control", "no-store");
    responseHeaders.set("Referrer-Policy", "strict-origin");
  } else if (storefront) {
    // a shared page's policy and headers are set once it is rendered (below)
    if (!shared) {
      responseHeaders.set("Content-Security-Policy", storefrontCsp(nonce!, layout?.csp ?? null));
      responseHeaders.set("Cache-Control", PRIVATE_CACHE_CONTROL);
    }
  } else {
    const needs = pageCspNeeds(context.matches, context.loaderData);
    responseHeaders.set("Content-Security-Policy", platformPageCsp(nonce!, needs));
    responseHeaders.set("Cache-Control", "no-store");
  }
  let html =
    "<!DOCTYPE html>" +
    renderToString(
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>,
    );
  // Remix's <Scripts> gives its <link rel="modulepreload"> no nonce; under 'strict-dynamic'
  // a preload without one is refused, so the nonce is added here.
  if (nonce) html = html.replaceAll('<link rel="modulepreload"', `<link nonce="${nonce}" rel="modulepreload"`);
  if (shared) {
    // the page's own inline scripts (Remix's context, route modules and scroll restoration), by their hashes
    responseHeaders.set(
      "Content-Security-Policy",
      storefrontCsp({ hashes: inlineScriptHashes(html) }, layout?.csp ?? null),
    );
    responseHeaders.set("ETag", etag);
    responseHeaders.set("Cache-Control", SHARED_CACHE_CONTROL);
    responseHeaders.set("Vary", SHARED_VARY);
  }
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(html, { headers: responseHeaders, status: responseStatusCode });
}

/**
 * Loader data of the platform's pages (client navigations) carries personal data: never cached. A
 * navigation to a page with a policy of its own (iframes of apps, JSON-Schema forms) becomes a
 * document load, so that the page gets its policy (page-csp.server.ts).
 */
export const handleDataRequest: HandleDataRequestFunction = async (response, { request }) => {
  const url = new URL(request.url);
  if (isStorefrontPath(url.pathname)) {
    // the data of a client-side navigation: shared like its page when that may be (storefront/http-cache.ts)
    const etag = request.headers.get(STOREFRONT_ETAG_HEADER);
    if (
      etag !== null &&
      response.status === 200 &&
      !response.headers.has("Set-Cookie") &&
      !response.headers.has("X-Remix-Redirect")
    ) {
      response.headers.set("ETag", etag);
      response.headers.set("Cache-Control", SHARED_CACHE_CONTROL);
      response.headers.set("Vary", SHARED_VARY);
    } else response.headers.set("Cache-Control", PRIVATE_CACHE_CONTROL);
    return response;
  }
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "no-store");
  if (
    request.method === "GET" &&
    response.status === 200 &&
    /\bapplication\/json\b/.test(response.headers.get("Content-Type") ?? "")
  ) {
    if (needsOwnDocument(request, await response.clone().text())) {
      url.searchParams.delete("_data");
      return new Response(null, {
        status: 204,
        headers: {
          "X-Remix-Redirect": url.pathname + url.search,
          "X-Remix-Status": "302",
          "X-Remix-Reload-Document": "true",
          "Cache-Control": "no-store",
        },
      });
    }
  }
  return response;
};
