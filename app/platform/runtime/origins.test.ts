/**
 * Two origins (decision 013, contract section 10): storefront pages only on STOREFRONT_URL, the
 * platform's pages only on PUBLIC_URL, JSON on both; the platform's cookie never on the storefront's
 * host; each origin its own CSRF token; the headers of the platform's pages.
 */
import { describe, expect, it } from "vitest";
import { startPlatform, startProductionPlatform } from "../testing/platform";
import { BrowserSession } from "../testing/browser";
import { createProduct, productSchema } from "../catalog/products.server";

const p = await startPlatform();
const merchant = await p.register("MERCHANT");
const [business] = await p.sql<{ slug: string }[]>`select slug from businesses where id = ${merchant.businessId}`;
const shop = `/s/${business.slug}`;
const product = await createProduct(p.db, merchant.businessId, productSchema.parse({ name: "Oat Cookie", price: 250 }));

/** A shopper with a cart: the storefront's cookies (`__cart`, and `__shop` with their CSRF token). */
async function shopperWithCart() {
  const shopper = new BrowserSession(p.url);
  const added = await shopper.post(`${shop}/cart`, { intent: "add", productId: product.id, quantity: "1" });
  expect(added.status).toBe(302);
  return shopper;
}

const raw = (origin: string, path: string, init: RequestInit = {}) =>
  fetch(origin + path, { redirect: "manual", ...init });
const cookieNames = (res: Response) => res.headers.getSetCookie().map((c) => c.split("=")[0]);

describe("two origins", () => {
  it("has the storefront on another host than the platform", () => {
    expect(new URL(p.storefrontUrl).hostname).not.toBe(new URL(p.url).hostname);
  });

  it("moves a page asked for on the wrong origin to the same path on the right one (308)", async () => {
    for (const [origin, path, to] of [
      [p.url, `${shop}?x=1`, p.storefrontUrl],
      [p.url, `${shop}/products`, p.storefrontUrl],
      [p.storefrontUrl, "/admin/orders?status=PENDING", p.url],
      [p.storefrontUrl, "/portal", p.url],
      [p.storefrontUrl, "/reviewer", p.url],
      [p.storefrontUrl, "/login?redirectTo=%2Fadmin", p.url],
      [p.storefrontUrl, "/oauth/authorize?client_id=x", p.url],
      [p.storefrontUrl, "/marketplace", p.url],
      [p.storefrontUrl, "/", p.url],
    ]) {
      const res = await raw(origin, path);
      expect(res.status, `${origin}${path}`).toBe(308);
      expect(res.headers.get("location")).toBe(to + path);
      expect(cookieNames(res)).toEqual([]);
    }
    // a form post keeps its method through a 308, and lands where its origin checks apply
    const post = await raw(p.storefrontUrl, "/admin/products/new", {
      method: "POST",
      body: new URLSearchParams({ name: "x" }),
    });
    expect(post.status).toBe(308);
    expect(post.headers.get("location")).toBe(`${p.url}/admin/products/new`);
  });

  it("serves each page on its own origin", async () => {
    expect((await raw(p.storefrontUrl, shop)).status).toBe(200);
    expect((await raw(p.url, "/login")).status).toBe(200);
    expect((await raw(p.url, "/marketplace")).status).toBe(200);
  });

  it("answers the JSON APIs, the health check and the assets on both", async () => {
    for (const origin of [p.url, p.storefrontUrl]) {
      expect((await raw(origin, "/healthz")).status).toBe(200);
      const api = await raw(origin, "/auth/login", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: merchant.email, password: merchant.password }),
      });
      expect(api.status, origin).toBe(200);
      expect(
        (await raw(origin, "/merchant/installations", { headers: { Authorization: `Bearer ${merchant.token}` } }))
          .status,
      ).toBe(200);
      expect((await raw(origin, "/app-api/products")).status).toBe(401);
    }
  });

  it("never sets or reads the platform's session on the storefront's host", async () => {
    const browser = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
    expect([...browser.jars.get(new URL(p.url).hostname)!.keys()]).toContain("__session");
    // a page view sets no cookie at all (decision 021); the first cart sets only the storefront's own, on /s/
    const page = await raw(p.storefrontUrl, shop);
    expect(cookieNames(page)).toEqual([]);
    const added = await raw(p.storefrontUrl, `${shop}/cart`, {
      method: "POST",
      headers: { Origin: p.storefrontUrl },
      body: new URLSearchParams({ intent: "add", productId: product.id, quantity: "1" }),
    });
    expect(added.status).toBe(302);
    expect(cookieNames(added).sort()).toEqual(["__cart", "__shop"]);
    for (const cookie of added.headers.getSetCookie())
      expect(cookie).toMatch(/;\s*Path=\/s\/;.*HttpOnly.*SameSite=Lax/i);
    // even a copied platform cookie sent to the storefront's host gives nothing: no page of the admin is served there
    const stolen = `__session=${browser.jars.get(new URL(p.url).hostname)!.get("__session")}`;
    for (const path of ["/admin/orders", "/portal", "/admin/settings"]) {
      const res = await raw(p.storefrontUrl, path, { headers: { Cookie: stolen } });
      expect(res.status).toBe(308);
      expect(await res.text()).not.toContain(merchant.email);
    }
    const shopPage = await (await raw(p.storefrontUrl, shop, { headers: { Cookie: stolen } })).text();
    expect(shopPage).not.toContain(merchant.email);
    expect(shopPage).not.toContain("Sign out");
  });

  it("gives the storefront a CSRF token of its own: the platform's is refused there, and the other way round", async () => {
    const browser = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
    await browser.get("/admin/settings");
    const platformToken = browser.csrf;
    // the storefront's token comes with the first cart (decision 021)
    await browser.post(`${shop}/cart`, { intent: "add", productId: product.id, quantity: "1" });
    await browser.get(`${shop}/cart`);
    const shopToken = browser.csrf;
    expect(shopToken).not.toBe(platformToken);
    browser.csrf = platformToken;
    const cart = await browser.post(`${shop}/cart`, { intent: "add", productId: product.id, quantity: "1" });
    expect(cart.status).toBe(403);
    browser.csrf = shopToken;
    const settings = await browser.post("/admin/settings", { name: "Changed by a storefront token" });
    expect(settings.status).toBe(403);
    const [row] = await p.sql<{ name: string }[]>`select name from businesses where id = ${merchant.businessId}`;
    expect(row.name).not.toBe("Changed by a storefront token");
  });

  it("links from the admin to the storefront on the storefront's origin", async () => {
    const browser = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
    const dashboard = await browser.get("/admin");
    expect(dashboard.html).toContain(`href="${p.storefrontUrl}${shop}"`);
  });
});

describe("headers of the platform's pages", () => {
  it("gives every signed-in area a strict nonce policy and no-store", async () => {
    const browser = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
    for (const path of ["/admin", "/admin/orders", "/admin/pages/home", "/login", "/marketplace"]) {
      const res = await fetch(p.url + path, { headers: { Cookie: browser.cookieHeader(new URL(p.url)) } });
      expect(res.status, path).toBe(200);
      const csp = res.headers.get("content-security-policy")!;
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce, path).toBeTruthy();
      expect(csp).toContain(`script-src 'nonce-${nonce}' 'strict-dynamic'`);
      for (const d of ["object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'"])
        expect(csp, path).toContain(d);
      expect(csp, path).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(res.headers.get("cache-control"), path).toBe("no-store");
      // every script the page carries has the nonce
      const html = await res.text();
      for (const tag of html.match(/<script\b[^>]*>/g) ?? []) expect(tag, path).toContain(`nonce="${nonce}"`);
      for (const tag of html.match(/<link\b[^>]*rel="modulepreload"[^>]*>/g) ?? [])
        expect(tag, path).toContain(`nonce="${nonce}"`);
    }
    // pages without iframes allow none; JSON-Schema forms need eval only where they are shown
    const orders = (
      await fetch(p.url + "/admin/orders", { headers: { Cookie: browser.cookieHeader(new URL(p.url)) } })
    ).headers.get("content-security-policy")!;
    expect(orders).toContain("frame-src 'none'");
    expect(orders).not.toContain("unsafe-eval");
    const builder = (
      await fetch(p.url + "/admin/pages/home", { headers: { Cookie: browser.cookieHeader(new URL(p.url)) } })
    ).headers.get("content-security-policy")!;
    expect(builder).toContain("'unsafe-eval'");
  });

  it("loads a page with a policy of its own as a document when a client navigation reaches it", async () => {
    const browser = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
    const cookie = browser.cookieHeader(new URL(p.url));
    const data = (referer: string) =>
      fetch(`${p.url}/admin/pages/home?_data=${encodeURIComponent("routes/admin.pages.$slug")}`, {
        headers: { Cookie: cookie, Referer: referer },
        redirect: "manual",
      });
    // from another page: the client is told to load the builder as a document (and so with its policy)
    const moved = await data(`${p.url}/admin/pages`);
    expect(moved.status).toBe(204);
    expect(moved.headers.get("x-remix-redirect")).toBe("/admin/pages/home");
    expect(moved.headers.get("x-remix-reload-document")).toBe("true");
    // the builder revalidating itself (after saving) stays a data request
    const again = await data(`${p.url}/admin/pages/home`);
    expect(again.status).toBe(200);
    expect((await again.json()).page.slug).toBe("home");
    // a page without needs of its own is an ordinary client navigation
    const orders = await fetch(`${p.url}/admin/orders?_data=${encodeURIComponent("routes/admin.orders._index")}`, {
      headers: { Cookie: cookie, Referer: `${p.url}/admin` },
    });
    expect(orders.status).toBe(200);
    expect(orders.headers.get("cache-control")).toBe("no-store");
  });

  it("keeps JSON answers out of caches and leaves storefront pages their own policy", async () => {
    const res = await raw(p.url, "/merchant/installations", { headers: { Authorization: `Bearer ${merchant.token}` } });
    expect(res.headers.get("cache-control")).toBe("no-store");
    for (const origin of [p.url, p.storefrontUrl])
      expect((await raw(origin, "/app-api/products")).headers.get("cache-control"), origin).toBe("no-store");
    // an anonymous visitor's page is shared: its inline scripts by their hashes (decision 021)
    const page = await raw(p.storefrontUrl, shop);
    expect(page.headers.get("content-security-policy")).toMatch(/script-src 'self' 'sha256-/);
    expect(page.headers.get("content-security-policy")).not.toContain("nonce");
    expect(page.headers.get("cache-control")).toMatch(/^public, /);
    // a shopper's page is theirs: a nonce and no-store
    const shopper = await shopperWithCart();
    const own = await raw(p.storefrontUrl, shop, {
      headers: { Cookie: shopper.cookieHeader(new URL(p.storefrontUrl)) },
    });
    expect(own.headers.get("content-security-policy")).toMatch(/script-src 'self' 'nonce-/);
    expect(own.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("strict-transport-security")).toBeNull();
  });

  it("sends Strict-Transport-Security on every answer in production", async () => {
    const prod = await startProductionPlatform(p.dbUrl, {
      PUBLIC_URL: "https://apps.example.com",
      STOREFRONT_URL: "https://shops.example-stores.com",
    });
    for (const path of ["/healthz", "/app-api/products", "/login", shop]) {
      const res = await fetch(`http://127.0.0.1:${prod.port}${path}`, { redirect: "manual" });
      expect(res.headers.get("strict-transport-security"), path).toBe("max-age=31536000");
    }
  });
});
