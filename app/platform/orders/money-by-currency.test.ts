/**
 * Money by currency, end to end (issue 23): a business in JPY (no minor unit), USD (cents) and KWD
 * (fils, thousandths) sells a product; the order's amounts are right in the App API's answers
 * (major units, contract 6), in the order.created webhook a real receiver gets, on the admin's order
 * page and list, in the CSV export, on the storefront's menu and the shopper's confirmation page.
 */
import { describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { startPlatform } from "../testing/platform";
import { BrowserSession } from "../testing/browser";
import { startReceiver, eventually } from "../testing/receiver";
import { appBody } from "../apps/apps.test-helpers";
import { installThroughOAuth } from "../testing/install";
import { orderPath } from "../core/order-link.server";

const p = await startPlatform({ worker: true });
const receiver = await startReceiver();
const PASSWORD = "correct horse battery";
const reviewer = await p.createUser("REVIEWER");
const dev = await p.register("DEVELOPER");

/** A merchant whose business sells in `currency`, with the app installed through OAuth (its registration sends order.created to the receiver). */
async function merchantIn(currency: string) {
  const merchant = await p.register("MERCHANT");
  await p.sql`update businesses set currency = ${currency}, locale = 'en-US' where id = ${merchant.businessId}`;
  const [shop] = await p.sql<{ slug: string }[]>`select slug from businesses where id = ${merchant.businessId}`;
  const browser = await BrowserSession.signIn(p.url, merchant.email, PASSWORD);
  const { token } = await installThroughOAuth(
    p,
    { developer: dev, reviewer, merchant: browser },
    appBody({
      scopes: ["read_orders", "write_orders", "read_products", "read_analytics"],
      webhookUrl: `${receiver.url}/${currency}`,
      webhookEvents: ["order.created"],
      // major units by the currency's exponent, as contract 6 describes them: API version 2026-11-21
      // (versions/versions-contract.test.ts shows the same order in 2026-11-27's {amount, currency})
      apiVersion: "2026-11-21",
    }),
  );
  return { merchant, browser, slug: shop.slug, token };
}

/** The page's visible text, roughly: no scripts, React's text separators removed, tags as spaces. */
const text = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;|\u00a0/g, " ")
    .replace(/\s+/g, " ");

const CASES = [
  // currency, the price as the merchant types it, in minor units, in major units (API), as shown
  {
    currency: "JPY",
    typed: "1500",
    minor: 1500,
    major: 1500,
    shown: "¥1,500",
    total: 3000,
    totalShown: "¥3,000",
    csv: "3000",
  },
  {
    currency: "USD",
    typed: "12.50",
    minor: 1250,
    major: 12.5,
    shown: "$12.50",
    total: 25,
    totalShown: "$25.00",
    csv: "25.00",
  },
  {
    currency: "KWD",
    typed: "1.234",
    minor: 1234,
    major: 1.234,
    shown: "KWD 1.234",
    total: 2.468,
    totalShown: "KWD 2.468",
    csv: "2.468",
  },
] as const;

describe("money by currency", () => {
  for (const c of CASES) {
    it(`${c.currency}: the App API, the order.created webhook, the admin and the storefront show ${c.totalShown} for two of a ${c.shown} product`, async () => {
      const m = await merchantIn(c.currency);
      // the merchant adds the product through the admin's form, typing the price as the currency writes it
      const slug = `item-${randomBytes(3).toString("hex")}`;
      const form = await m.browser.get("/admin/products/new");
      expect(text(form.html)).toContain(`In ${c.currency}, e.g.`);
      const saved = await m.browser.post("/admin/products/new", {
        name: `Item ${slug}`,
        slug,
        description: "",
        price: c.typed,
        category: "Test",
        status: "ACTIVE",
        isAvailable: "on",
      });
      expect(saved.status, text(saved.html).slice(0, 400)).toBe(302);
      const [product] = await p.sql<
        { id: string; price: number }[]
      >`select id, price from products where business_id = ${m.merchant.businessId} and slug = ${slug}`;
      expect(product.price).toBe(c.minor);

      // the App API: the product's price and the order's amounts in major units of the currency
      const read = await p.request("GET", `/app-api/products/${product.id}`, { token: m.token });
      expect(read.json.price).toBe(c.major);
      const placed = await p.request("POST", "/app-api/orders", {
        token: m.token,
        body: {
          customer: { name: "Ada", phone: "555 0100" },
          items: [{ productId: product.id, quantity: 2 }],
          deliveryMethod: "PICKUP",
          paymentMethod: "CASH",
        },
      });
      expect(placed.status, placed.text).toBe(201);
      expect(placed.json).toMatchObject({
        currency: c.currency,
        subtotal: c.total,
        discount: 0,
        deliveryFee: 0,
        amount: c.total,
        items: [{ productId: product.id, price: c.major, quantity: 2 }],
      });
      const fetched = await p.request("GET", `/app-api/orders/${placed.json.id}`, { token: m.token });
      expect(fetched.json).toMatchObject({ amount: c.total, subtotal: c.total, currency: c.currency });
      const dashboard = await p.request("GET", "/app-api/analytics/dashboard", { token: m.token });
      expect(dashboard.json.last30Days).toEqual({ orders: 1, revenue: c.total });
      expect(dashboard.json.topProducts[0]).toMatchObject({ productId: product.id, revenue: c.total });

      // the webhook body a real receiver got
      const delivered = await eventually(async () => {
        const r = receiver.received.find(
          (x) =>
            x.path === `/${c.currency}` &&
            x.headers["x-webhook-event"] === "order.created" &&
            x.json?.data?.orderId === placed.json.id,
        );
        if (!r) throw new Error("order.created not received yet");
        return r;
      });
      expect(delivered.json.data).toMatchObject({ orderId: placed.json.id, amount: c.total, deliveryFee: 0 });
      expect(delivered.raw).toContain(`"amount":${c.total}`);

      // the admin: the order's page and the list
      const page = text((await m.browser.get(`/admin/orders/${placed.json.id}`)).html);
      expect(page).toContain(c.totalShown);
      expect(page).toContain(c.shown);
      expect(text((await m.browser.get("/admin/orders")).html)).toContain(c.totalShown);
      // the CSV export: pressed on the Orders page, prepared by the worker, downloaded when ready
      expect((await m.browser.post("/admin/orders?index", { intent: "export" })).status).toBe(303);
      const [{ id: exportId }] = await p.sql<{ id: string }[]>`
        select id from order_exports where business_id = ${m.merchant.businessId} order by created_at desc limit 1`;
      const csv = await eventually(async () => {
        const download = await m.browser.get(`/admin/orders/exports/${exportId}/download`);
        expect(download.status).toBe(200);
        return download.html;
      }, 30_000);
      expect(csv.split("\r\n")[1]).toContain(`,${c.csv},${c.currency},`);

      // the storefront: the menu and the shopper's confirmation page
      const shopper = new BrowserSession(p.url);
      expect(text((await shopper.get(`/s/${m.slug}/products`)).html)).toContain(c.shown);
      const confirmation = await shopper.get(orderPath(p.env, m.slug, placed.json.id));
      expect(confirmation.status).toBe(200);
      expect(text(confirmation.html)).toContain(c.totalShown);
    });
  }
});
