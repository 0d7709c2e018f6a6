/**
 * The storefront's Content-Security-Policy: scripts from the platform (Remix's inline scripts allowed
 * by the response's nonce, or by their hashes on a page a shared cache may keep) and from exactly the
 * origins of the active GLOBAL_SCRIPT embeds; frames from exactly the origins of the active blocks
 * and FLOATING_WIDGET embeds.
 */
import { createHash } from "node:crypto";
import { policySources } from "../core/urls";

export type CspOrigins = { scriptOrigins: string[]; frameOrigins: string[] };

/**
 * How the page's own inline scripts are allowed: a nonce (a fresh one per response), or the SHA-256
 * of each script (a page that is the same for every visitor, which a nonce would make unique; issue
 * 17, decision 021).
 */
export type InlineScripts = string | { hashes: string[] };

/** `'sha256-…'` of an inline script's text exactly as the page carries it. */
export const scriptHash = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/**
 * `frameAncestors`: who may frame the page. Storefront pages: nobody. The site builder's live preview
 * (decision 017): exactly the platform's origin (PUBLIC_URL), given by the server, never by a route.
 */
export function storefrontCsp(
  inline: InlineScripts,
  origins: CspOrigins | null,
  options: { frameAncestors?: string[] } = {},
): string {
  // only strings that already are exact origins reach the policy; anything else is dropped (core/urls.ts)
  const scripts = policySources(origins?.scriptOrigins ?? [], { exactOnly: true });
  const frames = policySources(origins?.frameOrigins ?? [], { exactOnly: true });
  const ancestors = policySources(options.frameAncestors ?? []);
  const own =
    typeof inline === "string"
      ? [`'nonce-${inline}'`]
      : [...new Set(inline.hashes.filter((h) => /^'sha256-[A-Za-z0-9+/]+=*'$/.test(h)))];
  return [
    "default-src 'self'",
    `script-src ${["'self'", ...own, ...scripts].join(" ")}`,
    `frame-src ${frames.length ? frames.join(" ") : "'none'"}`,
    "img-src 'self' https: http: data:",
    "style-src 'self' 'unsafe-inline'",
    "connect-src 'self'",
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${ancestors.length ? ancestors.join(" ") : "'none'"}`,
  ].join("; ");
}

/**
 * The hashes of every inline script of a rendered page (a `<script>` without `src`): what a page
 * without a nonce must allow. The page is rendered by React from the loaders' data, which it escapes,
 * so its inline scripts are Remix's own (the route context, the route modules, scroll restoration).
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\ssrc\s*=/i.test(` ${m[1]}`) || m[2].length === 0) continue;
    hashes.push(scriptHash(m[2]));
  }
  return hashes;
}
