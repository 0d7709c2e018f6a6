/**
 * The admin's setup guide (decision 061) and a new shop's own words, against the real server: each
 * step ticks from what the shop holds (a product, a saved home page, a payment or delivery app, any
 * app, an order), the dashboard shows it until the merchant hides it for the business, and a new
 * shop's storefront speaks of products (not a restaurant's menu) with a description of its own.
 */
import { describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { startPlatform } from "../testing/platform";
import { BrowserSession } from "../testing/browser";
import { appBody } from "../apps/apps.test-helpers";
import { installThroughOAuth } from "../testing/install";
import { setupGuide } from "./setup-guide.server";

const p = await startPlatform();
const reviewer = await p.createUser("REVIEWER");
const dev = await p.register("DEVELOPER");

const done = async (businessId: string) =>
  Object.fromEntries((await setupGuide(p.db, businessId)).steps.map((s) => [s.key, s.done]));

describe("the setup guide's steps, from real data", () => {
  it("starts with nothing done, and ticks each step as the shop does it", async () => {
    const merchant = await p.register("MERCHANT");
    const browser = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
    expect(await done(merchant.businessId)).toEqual({
      product: false,
      homePage: false,
      paymentDelivery: false,
      app: false,
      testOrder: false,
    });

    // a product, through the admin's form
    await browser.get("/admin/products/new");
    const created = await browser.post("/admin/products/new", {
      name: "Trail runner",
      price: "89.00",
      status: "ACTIVE",
    });
    expect(created.status, created.html.slice(0, 300)).toBe(302);
    expect((await done(merchant.businessId)).product).toBe(true);

    // the home page saved in the builder (the page a new shop starts with is not yet "shaped")
    const saved = await p.request("PUT", "/merchant/pages/home", {
      token: merchant.token,
      body: {
        title: "Home",
        isPublished: true,
        blocks: [{ kind: "builtin", type: "heading", settings: { text: "Shoes for every road" } }],
      },
    });
    expect(saved.status, saved.text).toBe(200);
    expect((await done(merchant.businessId)).homePage).toBe(true);

    // an app without payments or delivery ticks "install an app" only
    await installThroughOAuth(
      p,
      { developer: dev, reviewer, merchant: browser },
      appBody({ scopes: ["read_products"] }),
    );
    expect(await done(merchant.businessId)).toMatchObject({ app: true, paymentDelivery: false });
    // a delivery app ticks "payment and delivery"
    await installThroughOAuth(
      p,
      { developer: dev, reviewer, merchant: browser },
      appBody({ name: `Couriers ${randomBytes(3).toString("hex")}`, scopes: ["write_shipping"] }),
    );
    expect((await done(merchant.businessId)).paymentDelivery).toBe(true);

    // an order (a test order the merchant placed)
    expect(await done(merchant.businessId)).toMatchObject({ testOrder: false });
    await p.sql`insert into orders (id, business_id, order_number, subtotal, amount, currency, delivery_method, payment_method, customer_name, customer_phone)
      values (${"ord_" + randomBytes(6).toString("hex")}, ${merchant.businessId}, '1001', 8900, 8900, 'USD', 'PICKUP', 'CASH', 'Test', '+1 555 0100')`;
    expect(await done(merchant.businessId)).toEqual({
      product: true,
      homePage: true,
      paymentDelivery: true,
      app: true,
      testOrder: true,
    });
  });

  it("is on the dashboard until the merchant hides it, for every account of the business", async () => {
    const merchant = await p.register("MERCHANT");
    const browser = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
    const first = await browser.get("/admin");
    expect(first.status).toBe(200);
    expect(first.html).toContain("Set up your shop");
    expect(first.html).toContain("0 of 5 done");
    expect(first.html).toContain("Add a product");
    const hidden = await browser.post("/admin/setup-guide", { intent: "dismiss" });
    expect(hidden.status).toBe(302);
    expect(hidden.location).toBe("/admin?guide=hidden");
    expect((await setupGuide(p.db, merchant.businessId)).dismissed).toBe(true);
    const after = await browser.get("/admin");
    expect(after.html).not.toContain("Set up your shop");
    // another business's guide is its own
    const other = await p.register("MERCHANT");
    expect((await setupGuide(p.db, other.businessId)).dismissed).toBe(false);
  });

  it("refuses the hide form without its CSRF token", async () => {
    const merchant = await p.register("MERCHANT");
    const browser = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
    await browser.get("/admin");
    browser.csrf = "forged";
    expect((await browser.post("/admin/setup-guide", { intent: "dismiss" })).status).toBe(403);
    expect((await setupGuide(p.db, merchant.businessId)).dismissed).toBe(false);
  });
});

describe("a new shop starts as itself", () => {
  it("speaks of products, not a restaurant's menu, and describes itself from its name", async () => {
    const merchant = await p.register("MERCHANT");
    const [shop] = await p.sql<{ slug: string; name: string; type: string }[]>`
      select slug, name, type from businesses where id = ${merchant.businessId}`;
    expect(shop.type).toBe("RETAIL");
    const home = await p.request("GET", `/s/${shop.slug}`);
    expect(home.status).toBe(200);
    expect(home.text).not.toMatch(/Fresh food|made to order|>Menu</);
    expect(home.text).toContain(">Products</a>");
    expect(home.text).toContain("Browse our products");
    expect(home.text).toContain(
      `<meta name="description" content="Shop ${shop.name} online: browse the products and order for delivery or pickup."/>`,
    );
    const catalogue = await p.request("GET", `/s/${shop.slug}/products`);
    expect(catalogue.text).toContain("<h1>Products</h1>");
    for (const path of ["/cart", "/products"]) {
      const page = await p.request("GET", `/s/${shop.slug}${path}`);
      expect(page.text.match(/<meta name="description"/g), path).toHaveLength(1);
    }
  });

  it("takes the merchant's kind and description from the settings, and the storefront follows", async () => {
    const merchant = await p.register("MERCHANT");
    const [shop] = await p.sql<
      { slug: string; name: string }[]
    >`select slug, name from businesses where id = ${merchant.businessId}`;
    const browser = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
    await browser.get("/admin/settings");
    const saved = await browser.post("/admin/settings", {
      name: shop.name,
      type: "RESTAURANT",
      metaDescription: "Hand-pulled noodles, open late.",
      address: "",
      phone: "",
      email: "",
      currency: "USD",
      locale: "en-US",
      timezone: "UTC",
    });
    expect(saved.status, saved.html.slice(0, 400)).toBe(302);
    const home = await p.request("GET", `/s/${shop.slug}/products`);
    expect(home.text).toContain("<h1>Menu</h1>");
    expect(home.text).toContain('<meta name="description" content="Hand-pulled noodles, open late."/>');
    const tooLong = await browser.post("/admin/settings", {
      name: shop.name,
      type: "RESTAURANT",
      metaDescription: "x".repeat(301),
      currency: "USD",
      locale: "en-US",
      timezone: "UTC",
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.html).toContain("Description for search engines must be at most 300 characters");
    const badKind = await browser.post("/admin/settings", {
      name: shop.name,
      type: "CASINO",
      currency: "USD",
      locale: "en-US",
      timezone: "UTC",
    });
    expect(badKind.status).toBe(400);
  });
});
