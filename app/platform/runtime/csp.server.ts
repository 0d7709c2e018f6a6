/**
 * The storefront's Content-Security-Policy: scripts from the platform (with the response's nonce
 * for Remix's inline scripts) and from exactly the origins of the active GLOBAL_SCRIPT embeds;
 * frames from exactly the origins of the active blocks and FLOATING_WIDGET embeds.
 */
import { policySources } from "../core/urls";

export type CspOrigins = { scriptOrigins: string[]; frameOrigins: string[] };

export function storefrontCsp(nonce: string, origins: CspOrigins | null): string {
  // only exact origins reach the policy, whatever a stored URL holds (core/urls.ts)
  const scripts = policySources(origins?.scriptOrigins ?? []);
  const frames = policySources(origins?.frameOrigins ?? []);
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
    "frame-ancestors 'none'",
  ].join("; ");
}
