/**
 * What the storefront tells caches (issue 17, decision 021). A page every anonymous visitor sees
 * alike (home, site page, menu, product page, and the data of a client-side navigation to them):
 * no cookie, Cache-Control for shared caches, a strong ETag that a repeat request gets 304 for, the
 * same bytes every time, and a policy that allows its inline scripts by their hashes (no nonce).
 * Everything else on the storefront, and every page of a shopper with a cart: private, no-store.
 */
import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { startPlatform } from "../app/platform/testing/platform";
import { BrowserSession } from "../app/platform/testing/browser";
import { createProduct, productSchema } from "../app/platform/catalog/products.server";
import { savePage } from "../app/platform/extensions/merchant.server";
import { scriptHash } from "../app/platform/runtime/csp.server";
import { businesses, pages } from "../db/schema";
import { PRIVATE_CACHE_CONTROL, SHARED_CACHE_CONTROL, STOREFRONT_ETAG_HEADER } from "./http-cache";

const p = await startPlatform();
const merchant = await p.register("MERCHANT");
const [business] = await p.db.select().from(businesses).where(eq(businesses.id, merchant.businessId));
const shop = `/s/${business.slug}`;
const soup = await createProduct(p.db, business.id, productSchema.parse({ name: "Soup", slug: "soup", price: 500 }));
await savePage(p.db, business.id, "about", {
  title: "About us",
  isPublished: true,
  blocks: [
    { kind: "builtin", type: "text", settings: { text: "Since 1999" } },
    { kind: "builtin", type: "product-grid", settings: { limit: 4 } },
  ],
});

const SHARED = [
  shop,
  `${shop}/`,
  `${shop}/products`,
  `${shop}/products/soup`,
  `${shop}/pages/about`,
  `${shop}/products?utm_source=mail`,
];
const DATA = [
  `${shop}?_data=root`,
  `${shop}?_data=${encodeURIComponent("routes/s.$businessSlug")}`,
  `${shop}?_data=${encodeURIComponent("routes/s.$businessSlug._index")}`,
  `${shop}/products/soup?_data=${encodeURIComponent("routes/s.$businessSlug.products.$productSlug")}`,
];

const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
  fetch(p.storefrontUrl + path, { method, headers, redirect: "manual" });

/** The policy's script-src allows exactly the page's inline scripts, by hash, and no nonce. */
function expectHashPolicy(path: string, csp: string, html: string) {
  const scriptSrc = /script-src ([^;]*)/.exec(csp)![1].split(" ");
  expect(scriptSrc, path).not.toContainEqual(expect.stringMatching(/nonce/));
  expect(html, path).not.toMatch(/\snonce="/);
  const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
    (m) => !/\ssrc=/.test(m[1]) && m[2],
  );
  expect(inline.length, path).toBeGreaterThanOrEqual(2); // Remix's context and its route modules
  for (const [, , body] of inline) expect(scriptSrc, path).toContain(scriptHash(body));
  expect(scriptSrc.filter((s) => s.startsWith("'sha256-")).length, path).toBe(
    new Set(inline.map((m) => scriptHash(m[2]))).size,
  );
  expect(csp, path).not.toContain("'unsafe-inline' ");
  expect(/script-src[^;]*'unsafe-inline'/.test(csp), path).toBe(false);
}

describe("pages every anonymous visitor sees alike", () => {
  it("have no cookie, a strong ETag, Cache-Control for shared caches, and a hash policy; 304 for their ETag", async () => {
    for (const path of [...SHARED, ...DATA]) {
      const res = await get(path);
      const body = await res.text();
      expect(res.status, path).toBe(200);
      expect(res.headers.getSetCookie(), path).toEqual([]);
      expect(res.headers.get("cache-control"), path).toBe(SHARED_CACHE_CONTROL);
      expect(res.headers.get("vary"), path).toMatch(/\bCookie\b/);
      const etag = res.headers.get("etag")!;
      expect(etag, path).toMatch(/^"\d+-[A-Za-z0-9_-]{22}"$/);
      if (!path.includes("_data=")) expectHashPolicy(path, res.headers.get("content-security-policy")!, body);
      // the same bytes for the same ETag
      const again = await get(path);
      expect(again.headers.get("etag"), path).toBe(etag);
      expect(await again.text(), path).toBe(body);
      for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
        const conditional = await get(path, { "If-None-Match": inm });
        expect(conditional.status, `${path} ${inm}`).toBe(304);
        expect(await conditional.text()).toBe("");
        expect(conditional.headers.get("etag")).toBe(etag);
        expect(conditional.headers.get("cache-control")).toBe(SHARED_CACHE_CONTROL);
      }
      expect((await get(path, { "If-None-Match": '"0-somethingelse"' })).status, path).toBe(200);
    }
  });

  it("sets no cookie on the storefront's origin at all, not even for a missing image or icon", async () => {
    for (const path of [
      "/images/no-such-picture.png",
      "/robots.txt",
      "/favicon.ico",
      "/s/no-such-shop",
      `${shop}/cart`,
    ]) {
      const res = await get(path);
      expect(res.headers.getSetCookie(), path).toEqual([]);
    }
    // the icon every browser asks for is a file (a not-found page would be rendered for each new visitor)
    const icon = await get("/favicon.ico");
    expect(icon.status).toBe(200);
    expect(icon.headers.get("cache-control")).toMatch(/public, max-age=\d+/);
  });

  it("answers HEAD like GET, without a body", async () => {
    const head = await get(shop, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe((await get(shop)).headers.get("etag"));
    expect(head.headers.get("cache-control")).toBe(SHARED_CACHE_CONTROL);
    expect(await head.text()).toBe("");
  });

  it("renders the default home page (no saved one) as the same bytes every time", async () => {
    const { business: b } = await p.registerMerchant();
    await p.db.delete(pages).where(and(eq(pages.businessId, b.id), eq(pages.slug, "home")));
    await createProduct(p.db, b.id, productSchema.parse({ name: "Tea", price: 300 }));
    const [first, second] = [await get(`/s/${b.slug}`), await get(`/s/${b.slug}`)];
    const html = await first.text();
    expect(html).toContain(`Welcome to ${b.name}`);
    expect(html).toContain("Tea");
    expect(await second.text()).toBe(html);
  });
});

describe("everything else on the storefront", () => {
  it("is private and never stored: the cart, checkout, order confirmation, errors and redirects", async () => {
    for (const [path, status] of [
      [`${shop}/cart`, 200],
      [`${shop}/checkout`, 302],
      [`${shop}/pages/home`, 302],
      [`${shop}/products/no-such-dish`, 404],
      [`${shop}/pages/no-such-page`, 404],
      ["/s/no-such-shop", 404],
      [`${shop}/preview/home`, 401],
      [`${shop}/unknown/path`, 404],
    ] as const) {
      const res = await get(path);
      expect(res.status, path).toBe(status);
      // (the builder's preview has its own "no-store", decision 017)
      expect(res.headers.get("cache-control"), path).toBe(
        path.includes("/preview/") ? "no-store" : PRIVATE_CACHE_CONTROL,
      );
      expect(res.headers.get("etag"), path).toBeNull();
    }
    // an order: its confirmation is the shopper's alone
    const shopper = new BrowserSession(p.url);
    await shopper.post(`${shop}/cart`, { intent: "add", productId: soup.id, quantity: "1" });
    const { checkoutKey } = Object.fromEntries(
      [...(await shopper.get(`${shop}/checkout`)).html.matchAll(/name="(checkoutKey)" value="([^"]+)"/g)].map((m) => [
        m[1],
        m[2],
      ]),
    );
    const quote = await shopper.get(`${shop}/checkout/quote?deliveryMethod=PICKUP`);
    const quotedAmount = String(JSON.parse(quote.html).amount);
    const placed = await shopper.post(`${shop}/checkout`, {
      checkoutKey,
      quotedAmount,
      name: "Ann",
      phone: "555 0100",
      deliveryMethod: "PICKUP",
      paymentMethod: "CASH",
    });
    expect(placed.status).toBe(302);
    expect(placed.location).toMatch(new RegExp(`^${shop}/orders/ord_`));
    const confirmation = await get(placed.location!);
    expect(confirmation.status).toBe(200);
    expect(confirmation.headers.get("cache-control")).toBe(PRIVATE_CACHE_CONTROL);
  });

  it("gives a shopper with a cart pages of their own: a nonce, no ETag, never 304 for the shared page's ETag", async () => {
    const sharedEtag = (await get(`${shop}/products/soup`)).headers.get("etag")!;
    const shopper = new BrowserSession(p.url);
    await shopper.post(`${shop}/cart`, { intent: "add", productId: soup.id, quantity: "2" });
    const cookie = shopper.cookieHeader(new URL(p.storefrontUrl));
    for (const path of [...SHARED, ...DATA, `${shop}/cart`, `${shop}/checkout`]) {
      // a client cannot make its own page shared by sending the platform's internal header
      const res = await get(path, {
        Cookie: cookie,
        "If-None-Match": sharedEtag,
        [STOREFRONT_ETAG_HEADER]: sharedEtag,
      });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("cache-control"), path).toBe(PRIVATE_CACHE_CONTROL);
      expect(res.headers.get("etag"), path).toBeNull();
      if (!path.includes("_data=")) {
        const csp = res.headers.get("content-security-policy")!;
        const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
        expect(nonce, path).toBeTruthy();
        const html = await res.text();
        expect(html.replace(/<!-- -->/g, "").replace(/<[^>]*>/g, ""), path).toContain("Cart (2)");
        for (const tag of html.match(/<script\b[^>]*>/g) ?? [])
          if (!/\ssrc=/.test(tag)) expect(tag, path).toContain(`nonce="${nonce}"`);
      }
    }
    // the same for an anonymous request carrying the internal header: it is ignored
    const forged = await get(`${shop}/cart`, { [STOREFRONT_ETAG_HEADER]: '"1-forged"' });
    expect(forged.headers.get("cache-control")).toBe(PRIVATE_CACHE_CONTROL);
    expect(forged.headers.get("etag")).toBeNull();
  });
});
