/**
 * Which storefront answers a shared cache may keep, and how (issue 17, decision 021). Shared by the
 * storefront's HTTP layer (app/platform/runtime/storefront-pages.server.ts: conditional requests,
 * before any loader runs) and the document renderer (app/entry.server.tsx: the headers of the page).
 *
 * A page may be shared when it is the same for every anonymous visitor: the shop's home page, its
 * site pages, the menu and product pages (and the data of their client-side navigations), asked for
 * with GET or HEAD by a visitor who holds neither the cart cookie nor the storefront's CSRF cookie.
 * Such a page has no cookie in its answer, no nonce in its policy, a strong ETag from the shop's
 * content version, and Cache-Control for shared caches. Everything else on the storefront (the cart,
 * checkout, order confirmation, the builder's preview, any page of a shopper with a cart) is
 * `private, no-store`.
 */
import { cookieNames } from "../app/platform/core/cookies";

/** Seconds a shared cache serves a page without asking again; a change shows within this window. */
export const SHARED_MAX_AGE = 10;
/** Seconds after that a shared cache may still answer with the old page while it fetches the new one. */
export const STALE_WHILE_REVALIDATE = 30;

/**
 * Browsers keep the page too but ask every time (max-age=0, answered 304 while nothing changed);
 * shared caches keep it SHARED_MAX_AGE seconds.
 */
export const SHARED_CACHE_CONTROL = `public, max-age=0, s-maxage=${SHARED_MAX_AGE}, stale-while-revalidate=${STALE_WHILE_REVALIDATE}`;
export const PRIVATE_CACHE_CONTROL = "private, no-store";
/**
 * A shared page is the anonymous visitor's: a cache must not hand it to a shopper whose cookies
 * would change it (a browser that stored it before the cart existed asks again).
 */
export const SHARED_VARY = "Cookie";

/** The cookies that make a storefront page personal: the cart and the storefront's CSRF token. */
export const SHOPPER_COOKIES = ["__cart", "__shop"] as const;

/**
 * Set by the storefront's HTTP layer on a request whose answer may be shared: the ETag it computed
 * from the shop's content version. Any value a client sends is removed first.
 */
export const STOREFRONT_ETAG_HEADER = "x-platform-storefront-etag";

export { cookieNames };

/** Whether the Cookie header holds one of the shopper's cookies (by name; a tampered one counts too). */
export function hasShopperCookie(cookieHeader: string | null | undefined): boolean {
  if (!cookieHeader) return false;
  const names = cookieNames(cookieHeader);
  return SHOPPER_COOKIES.some((name) => names.has(name));
}

/**
 * The shop's slug when the path is a page every anonymous visitor sees alike: /s/<shop>,
 * /s/<shop>/products, /s/<shop>/products/<product>, /s/<shop>/pages/<page>; else null.
 */
export function sharedPageSlug(pathname: string): string | null {
  const m = /^\/s\/([^/]+)(?:\/|\/products\/?|\/products\/[^/]+\/?|\/pages\/[^/]+\/?)?$/.exec(pathname);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}

/** RFC 9110 13.1.2: If-None-Match with weak comparison; `*` matches any current page. */
export function etagMatches(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((t) => t.trim() === "*" || bare(t) === bare(etag));
}
