/**
 * Debian's nginx with deploy/nginx/config.ts's configuration in front of the real platform (issue 17,
 * decision 021), as an operator deploys it: repeat views of a shop's pages are served by the cache, a
 * price change shows within the pages' s-maxage, a shopper's cart, checkout and the admin never come
 * from the cache, and no shopper ever sees another's cart.
 */
import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { startPlatform } from "../../app/platform/testing/platform";
import { BrowserSession } from "../../app/platform/testing/browser";
import { createProduct, productSchema, updateProduct } from "../../app/platform/catalog/products.server";
import { businesses } from "../../db/schema";
import { SHARED_MAX_AGE } from "../../storefront/http-cache";
import { EXAMPLE, nginxHttpConfig } from "./config";
import { freePort, startNginx, type RunningNginx } from "./run";

const port = await freePort();
// the platform's two origins are nginx's: the host names it serves, on its port
const p = await startPlatform({
  env: { PUBLIC_URL: `http://localhost:${port}`, STOREFRONT_URL: `http://127.0.0.1:${port}` },
});
const nginx: RunningNginx = await startNginx({
  prefix: `.data/test-nginx-${port}`,
  port,
  upstreams: [`127.0.0.1:${p.port}`],
  platformHost: "localhost",
  storefrontHost: "127.0.0.1",
});
afterAll(async () => {
  await nginx?.stop();
  expect(nginx.process.exitCode ?? nginx.process.signalCode).not.toBeNull();
  fs.rmSync(nginx.prefix, { recursive: true, force: true });
});

const merchant = await p.register("MERCHANT");
const [business] = await p.db.select().from(businesses).where(eq(businesses.id, merchant.businessId));
const shop = `/s/${business.slug}`;
const soup = await createProduct(
  p.db,
  business.id,
  productSchema.parse({ name: "Tomato Soup", slug: "tomato-soup", price: 650 }),
);
const bread = await createProduct(
  p.db,
  business.id,
  productSchema.parse({ name: "Rye Bread", slug: "rye-bread", price: 420 }),
);

type Seen = { status: number; cache: string | null; headers: Headers; html: string };
/** A GET through nginx, with the browser's cookies when one is given. */
async function view(path: string, browser?: BrowserSession, headers: Record<string, string> = {}): Promise<Seen> {
  const url = browser ? browser.urlOf(path) : new URL(path, p.storefrontUrl);
  const cookie = browser?.cookieHeader(url);
  const res = await fetch(url, { headers: { ...(cookie ? { Cookie: cookie } : {}), ...headers }, redirect: "manual" });
  return { status: res.status, cache: res.headers.get("x-cache-status"), headers: res.headers, html: await res.text() };
}
const text = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ");

describe("nginx in front of the platform", () => {
  it("runs the committed example's directives", () => {
    // the example operators copy is this configuration with production names (so this test covers it)
    expect(fs.readFileSync("deploy/nginx/storefront-apps.conf", "utf8")).toBe(nginxHttpConfig(EXAMPLE));
  });

  it("serves repeat views of a shop's pages from its cache, and answers their ETags with 304", async () => {
    for (const path of [shop, `${shop}/products`, `${shop}/products/tomato-soup`]) {
      const first = await view(path);
      expect(first.status, path).toBe(200);
      expect(first.cache, path).toBe("MISS");
      expect(first.headers.get("set-cookie"), path).toBeNull();
      const etag = first.headers.get("etag")!;
      expect(etag, path).toMatch(/^"\d+-[A-Za-z0-9_-]+"$/);
      const again = await view(path);
      expect(again.cache, path).toBe("HIT");
      expect(again.html, path).toBe(first.html);
      expect(again.headers.get("etag"), path).toBe(etag);
      // a visitor's own cookie that is not the shop's changes nothing
      expect((await view(path, undefined, { Cookie: "_ga=GA1.1.123" })).cache, path).toBe("HIT");
      // the browser asks again with the ETag: 304 from the cache, no body
      const revalidated = await view(path, undefined, { "If-None-Match": etag });
      expect(revalidated.status, path).toBe(304);
      expect(revalidated.html, path).toBe("");
    }
  });

  it(`shows a new price within the pages' s-maxage (${SHARED_MAX_AGE} s)`, async () => {
    const path = `${shop}/products/rye-bread`;
    expect(text((await view(path)).html)).toContain("$4.20");
    expect((await view(path)).cache).toBe("HIT");
    const changed = Date.now();
    await updateProduct(p.db, business.id, bread.id, { price: 495 });
    // the cache keeps the page it has until it expires…
    const right = await view(path);
    expect(right.cache).toBe("HIT");
    expect(text(right.html)).toContain("$4.20");
    // …then asks the platform again (If-None-Match: the content version moved, so a new page)
    let seen = "";
    while (Date.now() - changed < (SHARED_MAX_AGE + 5) * 1000) {
      seen = text((await view(path)).html);
      if (seen.includes("$4.95")) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(seen).toContain("$4.95");
    expect(Date.now() - changed).toBeLessThan((SHARED_MAX_AGE + 2) * 1000);
    // and serves the new page from the cache again
    const after = await view(path);
    expect(text(after.html)).toContain("$4.95");
    expect(after.cache).toBe("HIT");
  });

  it("never serves a shopper's cart or checkout, or the admin, from the cache, and never stores them", async () => {
    // anonymous cart: no-store at the platform, so nginx asks every time
    for (let i = 0; i < 3; i++) {
      const cart = await view(`${shop}/cart`);
      expect(cart.status).toBe(200);
      expect(cart.cache).toBe("MISS");
      expect(cart.headers.get("cache-control")).toBe("private, no-store");
    }
    const shopper = new BrowserSession(p.url);
    const added = await shopper.post(`${shop}/cart`, { intent: "add", productId: soup.id, quantity: "2" });
    expect(added.status).toBe(302);
    expect([...shopper.cookies.keys()].sort()).toEqual(["__cart", "__shop"]);
    for (const path of [`${shop}/cart`, `${shop}/checkout`, shop, `${shop}/products/tomato-soup`]) {
      for (let i = 0; i < 2; i++) {
        const page = await view(path, shopper);
        expect(page.status, path).toBe(200);
        expect(page.cache, path).toBe("BYPASS");
        expect(page.headers.get("cache-control"), path).toBe("private, no-store");
        expect(page.headers.get("etag"), path).toBeNull();
      }
    }
    // the merchant's admin: on the platform's origin, where nginx keeps nothing
    const admin = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
    for (const path of ["/admin", "/admin/products", "/admin/orders"]) {
      for (let i = 0; i < 2; i++) {
        const page = await view(path, admin);
        expect(page.status, path).toBe(200);
        expect(page.cache, path).toBeNull();
        expect(page.headers.get("cache-control"), path).toBe("no-store");
        expect(text(page.html), path).toContain(merchant.account.name);
      }
    }
    expect(fs.readdirSync(`${nginx.prefix}/cache`).length).toBeGreaterThan(0);
  });

  it("never shows one shopper another's cart", async () => {
    const ann = new BrowserSession(p.url);
    const bob = new BrowserSession(p.url);
    await ann.post(`${shop}/cart`, { intent: "add", productId: soup.id, quantity: "3" });
    await bob.post(`${shop}/cart`, { intent: "add", productId: bread.id, quantity: "1" });
    // an anonymous visitor fills the cache with the home page in between
    expect((await view(shop)).cache).toMatch(/HIT|MISS|EXPIRED|UPDATING|STALE|REVALIDATED/);
    for (let i = 0; i < 3; i++) {
      const annCart = text((await view(`${shop}/cart`, ann)).html);
      expect(annCart).toContain("Tomato Soup");
      expect(annCart).not.toContain("Rye Bread");
      expect(text((await view(shop, ann)).html)).toContain("Cart (3)");
      const bobCart = text((await view(`${shop}/cart`, bob)).html);
      expect(bobCart).toContain("Rye Bread");
      expect(bobCart).not.toContain("Tomato Soup");
      expect(text((await view(shop, bob)).html)).toContain("Cart (1)");
      // and a visitor without a cart sees none, from the cache
      const anonymous = await view(shop);
      expect(text(anonymous.html)).toContain("Cart (0)");
      expect(text((await view(`${shop}/cart`)).html)).toContain("Your cart is empty");
    }
    expect((await view(shop)).cache).toBe("HIT");
  });
});
