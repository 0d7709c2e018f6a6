/**
 * URLs that apps supply (manifest renderUrl and scriptUrl, redirect, webhook and icon URLs,
 * screenshots) and the origins built from them for Content-Security-Policies. Shared by the server
 * (validation, headers) and the browser (the block host's postMessage origin).
 *
 * The WHATWG URL parser keeps `*`, `;`, `,`, quotes and other characters in a host
 * (`https://*\/a.js` has the host `*`), and a policy would read them as wildcards or new
 * directives; so a host must be a plain DNS name (letters, digits, hyphens, dots; IDNs arrive as
 * punycode) or an IP literal, and a policy source is only ever an exact serialised origin.
 */
const DNS_HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
const IPV6_LITERAL = /^\[[0-9a-f:.]+\]$/;
const ORIGIN = /^https?:\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/;

/** What is wrong with an app-supplied URL, in words that follow the field's name; null when it is fine. */
export function appUrlProblem(raw: unknown, options: { httpsOnly?: boolean } = {}): string | null {
  const expected = options.httpsOnly ? "must be an absolute https URL" : "must be an absolute http(s) URL";
  if (typeof raw !== "string") return expected;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return expected;
  }
  if (url.protocol !== "https:" && (options.httpsOnly || url.protocol !== "http:")) return expected;
  if (url.username || url.password) return "may not contain credentials (user:password@)";
  if (!DNS_HOST.test(url.hostname) && !IPV6_LITERAL.test(url.hostname))
    return `has an invalid host "${url.hostname}": only letters, digits, hyphens and dots (or an IP address) are allowed`;
  return null;
}

/** The exact origin of an http(s) URL with a valid host (`scheme://host[:port]`), or null. */
export function exactOrigin(value: unknown): string | null {
  if (typeof value !== "string") return null;
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    if (!DNS_HOST.test(url.hostname) && !IPV6_LITERAL.test(url.hostname)) return null;
    return ORIGIN.test(url.origin) ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * Only exact origins, deduplicated and sorted: what a policy's source list may hold. By default each
 * value is reduced to its origin (a page's own iframe URLs); with `exactOnly`, anything that is not
 * already exactly a serialised origin is dropped, not repaired (stored origins: a bad row cannot widen the policy).
 */
export function policySources(values: readonly unknown[], options: { exactOnly?: boolean } = {}): string[] {
  const origins = options.exactOnly
    ? values.filter((v): v is string => typeof v === "string" && exactOrigin(v) === v)
    : values.map(exactOrigin).filter((o): o is string => o !== null);
  return [...new Set(origins)].sort();
}
