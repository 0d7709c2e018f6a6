/**
 * Response compression (the `compression` middleware): brotli when the browser offers it (every
 * current one does over https; Chromium offers it over http too), else gzip, for every compressible
 * type (HTML, JSON, JavaScript, CSS, SVG). It wraps `res.write`/`res.end`, so the pages Remix
 * renders, the JSON fast path (json-routes.server.ts) and the static files of /build are all
 * compressed by this one middleware.
 *
 * - Bodies under 1 KiB stay as they are: the encoding would cost more than it saves.
 * - `Cache-Control: no-transform` is respected (the library checks it): nothing is re-encoded that
 *   its route asked to be passed on untouched.
 * - Brotli at quality 4 (the library's default): about gzip's speed with smaller output; quality 11
 *   would cost ~20x the CPU on every page, which is rendered per request.
 * - A streamed answer (Server-Sent Events, none today) must call `res.flush()` after each event, which
 *   this middleware adds to the response, or the compressor holds the event back.
 *
 * BREACH: an HTML page that holds a secret and reflects a visitor's input can leak the secret
 * through the compressed length. The one stable secret our pages hold, the CSRF token, is masked
 * afresh in every response (`maskCsrfToken`, accounts/session.server.ts), and the session cookies
 * are SameSite=Lax, so another site cannot make a browser send many credentialed requests (decision 020).
 */
import compression from "compression";
import type { RequestHandler } from "express";

export const COMPRESSION_THRESHOLD = 1024;

export function compress(): RequestHandler {
  return compression({ threshold: COMPRESSION_THRESHOLD });
}
