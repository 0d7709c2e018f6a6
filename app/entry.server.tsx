/**
 * Server rendering: the whole document is rendered before it is sent (no streaming is needed:
 * loaders do not defer). Every response gets a fresh nonce; storefront pages get their
 * Content-Security-Policy built from the active embeds and blocks their layout loader returned.
 */
import { PassThrough } from "node:stream";
import { randomBytes } from "node:crypto";
import type { EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { NonceContext } from "./components/nonce";
import { storefrontCsp, type CspOrigins } from "./platform/runtime/csp.server";

const ABORT_DELAY = 5_000;
const STOREFRONT_LAYOUT = "routes/s.$businessSlug";

export default function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, remixContext: EntryContext) {
  const nonce = randomBytes(16).toString("base64");
  if (new URL(request.url).pathname.startsWith("/s/")) {
    const layout = remixContext.staticHandlerContext.loaderData?.[STOREFRONT_LAYOUT] as { csp?: CspOrigins } | undefined;
    responseHeaders.set("Content-Security-Policy", storefrontCsp(nonce, layout?.csp ?? null));
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
          responseHeaders.set("Content-Type", "text/html");
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
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
