/**
 * The storefront's Content-Security-Policy: scripts from the platform (with the response's nonce
 * for Remix's inline scripts) and from exactly the origins of the active GLOBAL_SCRIPT embeds;
 * frames from exactly the origins of the active blocks and FLOATING_WIDGET embeds.
 */
import { policySources } from "../core/urls";

export type CspOrigins = { scriptOrigins: string[]; frameOrigins: string[] };

/**
 * `frameAncestors`: who may frame the page. Storefront pages: nobody. The site builder's live preview
 * (decision 017): exactly the platform's origin (PUBLIC_URL), given by the server, never by a route.
 */
export function storefrontCsp(nonce: string, origins: CspOrigins | null, options: { frameAncestors?: string[] } = {}): string {
  // only strings that already are exact origins reach the policy; anything else is dropped (core/urls.ts)
  const scripts = policySources(origins?.scriptOrigins ?? [], { exactOnly: true });
  const frames = policySources(origins?.frameOrigins ?? [], { exactOnly: true });
  const ancestors = policySources(options.frameAncestors ?? []);
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${scripts.length ? " " + scripts.join(" ") : ""}`,
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
