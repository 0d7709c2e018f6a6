/**
 * Server rendering: the whole document is rendered before it is sent (no streaming is needed:
 * loaders do not defer). Every response gets a fresh nonce and a Content-Security-Policy: storefront
 * pages one built from the active embeds and blocks their layout loader returned, the platform's own
 * pages the strict nonce policy of page-csp.server.ts; the platform's pages are never stored by a cache.
 */
import { randomBytes } from "node:crypto";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { PassThrough } from "node:stream";
import { NonceContext } from "./components/nonce";
import { storefrontCsp, type CspOrigins } from "./platform/runtime/csp.server";
import { needsOwnDocument, pageCspNeeds, platformPageCsp } from "./platform/runtime/page-csp.server";
import { isStorefrontPath } from "./platform/core/areas";

const ABORT_DELAY = 5_000;
const STOREFRONT_LAYOUT = "routes/s.$businessSlug";
/** The site builder's live preview (decision 017), a storefront page of its own outside the layout. */
const STOREFRONT_PREVIEW = "routes/s.$businessSlug_.preview.$pageSlug";

export default function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, remixContext: EntryContext, loadContext: AppLoadContext) {
  const nonce = randomBytes(16).toString("base64");
  const context = remixContext.staticHandlerContext;
  if (context.matches.some((m) => m.route.id === STOREFRONT_PREVIEW)) {
    // framed by the platform's own pages only (its error pages too, so the builder shows why), with
    // the frames of its app blocks and no embed's script; never cached; the token in its address
    // never leaves in a Referer
    const preview = context.loaderData?.[STOREFRONT_PREVIEW] as { csp?: CspOrigins } | undefined;
    responseHeaders.set("Content-Security-Policy", storefrontCsp(nonce, { scriptOrigins: [], frameOrigins: preview?.csp?.frameOrigins ?? [] }, { frameAncestors: [loadContext.env.publicUrl] }));
    responseHeaders.set("Cache-Control", "no-store");
    responseHeaders.set("Referrer-Policy", "strict-origin");
  } else if (isStorefrontPath(new URL(request.url).pathname)) {
    const layout = context.loaderData?.[STOREFRONT_LAYOUT] as { csp?: CspOrigins } | undefined;
    responseHeaders.set("Content-Security-Policy", storefrontCsp(nonce, layout?.csp ?? null));
  } else {
    const needs = pageCspNeeds(context.matches, context.loaderData);
    responseHeaders.set("Content-Security-Policy", platformPageCsp(nonce, needs));
    responseHeaders.set("Cache-Control", "no-store");
  }
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        onAllReady() {
          shellRendered = true;
          const body = new PassThrough();
          const chunks: Buffer[] = [];
          body.on("data", (chunk: Buffer) => chunks.push(chunk));
          body.on("end", () => {
            // Remix's <Scripts> gives its <link rel="modulepreload"> no nonce; under 'strict-dynamic'
            // a preload without one is refused, so the nonce is added here.
            const html = Buffer.concat(chunks).toString("utf8").replaceAll('<link rel="modulepreload"', `<link nonce="${nonce}" rel="modulepreload"`);
            responseHeaders.set("Content-Type", "text/html; charset=utf-8");
            resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
          });
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

/**
 * Loader data of the platform's pages (client navigations) carries personal data: never cached. A
 * navigation to a page with a policy of its own (iframes of apps, JSON-Schema forms) becomes a
 * document load, so that the page gets its policy (page-csp.server.ts).
 */
export const handleDataRequest: HandleDataRequestFunction = async (response, { request }) => {
  const url = new URL(request.url);
  if (isStorefrontPath(url.pathname)) return response;
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "no-store");
  if (request.method === "GET" && response.status === 200 && /\bapplication\/json\b/.test(response.headers.get("Content-Type") ?? "")) {
    if (needsOwnDocument(request, await response.clone().text())) {
      url.searchParams.delete("_data");
      return new Response(null, {
        status: 204,
        headers: { "X-Remix-Redirect": url.pathname + url.search, "X-Remix-Status": "302", "X-Remix-Reload-Document": "true", "Cache-Control": "no-store" },
      });
    }
  }
  return response;
};
