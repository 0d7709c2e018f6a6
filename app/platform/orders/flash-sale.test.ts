/**
 * A flash sale on ONE business (issue 16), for correctness: many shoppers and apps ordering at once
 * through the App API and the storefront checkout, against the real server, the real worker and
 * two real webhook receivers. No order lost or doubled, stock exact, order numbers unique, list
 * totals exact, and every committed order's webhook delivered once per registration.
 */
import { describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { startPlatform } from "../testing/platform";
import { BrowserSession, hiddenFields } from "../testing/browser";
import { startReceiver, eventually } from "../testing/receiver";
import { atOnce, expectOutcome } from "../testing/concurrency";
import { appBody } from "../apps/apps.test-helpers";
import { installThroughOAuth } from "../testing/install";

const p = await startPlatform({ worker: true, env: { APP_API_RATE_LIMIT: "100000" } });
const PASSWORD = "correct horse battery";
const receiverA = await startReceiver();
const receiverB = await startReceiver();
const merchant = await p.register("MERCHANT");
const merchantBrowser = await BrowserSession.signIn(p.url, merchant.email, PASSWORD);
const [shop] = await p.sql<{ slug: string }[]>`select slug from businesses where id = ${merchant.businessId}`;

// an app installed on the merchant's shop (OAuth), with its install registration to receiver A and a second one to receiver B
const reviewer = await p.createUser("REVIEWER");
const dev = await p.register("DEVELOPER");
const { token } = await installThroughOAuth(
  p,
  { developer: dev, reviewer, merchant: merchantBrowser },
  appBody({
    scopes: ["write_orders", "read_orders", "read_products"],
    webhookUrl: `${receiverA.url}/a`,
    webhookEvents: ["order.created"],
  }),
);
await p.request("POST", "/webhooks", { token, body: { url: `${receiverB.url}/b`, events: ["order.created"] } });

/** A product made through the admin's form, with tracked stock or none. */
async function product(stock: number | null) {
  const slug = `sale-${randomBytes(3).toString("hex")}`;
  await merchantBrowser.get("/admin/products/new");
  const form = await merchantBrowser.post("/admin/products/new", {
    name: `Sale item ${slug}`,
    slug,
    description: "",
    price: "9.50",
    category: "Sale",
    status: "ACTIVE",
    isAvailable: "on",
    ...(stock === null ? {} : { trackStock: "on", stock: String(stock) }),
  });
  expect(form.status, form.html.slice(0, 300)).toBe(302);
  const [row] = await p.sql<
    { id: string; name: string; stock: number | null }[]
  >`select id, name, stock from products where business_id = ${merchant.businessId} and slug = ${slug}`;
  expect(row.stock).toBe(stock);
  return row;
}

const order = (productId: string, i: number, headers: Record<string, string> = {}) =>
  p.request("POST", "/app-api/orders", {
    token,
    headers,
    body: {
      customer: { name: `Shopper ${i}`, phone: "555 0100" },
      items: [{ productId, quantity: 1 }],
      deliveryMethod: "PICKUP",
      paymentMethod: "CASH",
    },
  });

describe("a flash sale on one business", () => {
  it("sells exactly the stock: N units, N+k buyers at once, k told which product sold out", async () => {
    const item = await product(20);
    const answers = await atOnce(50, (i) => order(item.id, i));
    // 20 sold; each of the 30 others is told the product sold out: 409 when it sold out during their
    // checkout, 400 "has only 0 left" when it was gone before it began
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(20);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(30);
    for (const a of refused) {
      expect([400, 409]).toContain(a.status);
      expect(a.json.message).toContain(item.name);
      expect(a.json.message).toMatch(/sold out|has only 0 left/);
    }
    const [row] = await p.sql<{ stock: number }[]>`select stock from products where id = ${item.id}`;
    expect(row.stock).toBe(0);
    const [{ sold }] = await p.sql<
      { sold: number }[]
    >`select coalesce(sum(quantity), 0)::int as sold from order_items where product_id = ${item.id}`;
    expect(sold).toBe(20);
    // one out-of-stock event, however many buyers raced for the last unit
    const [{ n }] = await p.sql<
      { n: number }[]
    >`select count(*)::int as n from platform_events where type = 'product.out_of_stock' and data->>'productId' = ${item.id}`;
    expect(n).toBe(1);
  }, 60_000);

  it("loses and doubles nothing: 120 orders at once, each retried with its Idempotency-Key; unique numbers, exact totals, one delivery per order and registration", async () => {
    const item = await product(null);
    const before = await p.request("GET", "/app-api/orders?limit=1", { token });
    const keys = Array.from({ length: 60 }, (_, i) => `sale-${i}-${randomBytes(4).toString("hex")}`);
    // 60 orders, each sent twice at the same moment (a client retrying on a timeout), plus 60 without a key
    const answers = await atOnce(180, (i) =>
      i < 120 ? order(item.id, i % 60, { "Idempotency-Key": keys[i % 60] }) : order(item.id, i),
    );
    expectOutcome(answers, { 201: 180 }, { what: "orders with retries" });
    for (let k = 0; k < 60; k++) expect(answers[k].json.id, `retry of key ${k}`).toBe(answers[k + 60].json.id);
    const ids = new Set(answers.map((a) => a.json.id as string));
    expect(ids.size).toBe(120);

    const rows = await p.sql<
      { id: string; order_number: string }[]
    >`select id, order_number from orders where id = any(${[...ids]})`;
    expect(rows).toHaveLength(120);
    const [{ dupes }] = await p.sql<
      { dupes: number }[]
    >`select count(*)::int as dupes from (select order_number from orders where business_id = ${merchant.businessId} group by order_number having count(*) > 1) d`;
    expect(dupes).toBe(0);
    // list totals are exact
    const after = await p.request("GET", "/app-api/orders?limit=1", { token });
    const [{ count }] = await p.sql<
      { count: number }[]
    >`select count(*)::int as count from orders where business_id = ${merchant.businessId}`;
    expect(after.json.total).toBe(count);
    expect(after.json.total - before.json.total).toBe(120);

    // every committed order's order.created reaches each registration once (a duplicate would carry the same X-Service-Event-Id)
    for (const receiver of [receiverA, receiverB]) {
      await eventually(async () => {
        const got = new Set(
          receiver.received.filter((r) => ids.has(r.json?.data?.orderId)).map((r) => r.json.data.orderId),
        );
        expect(got.size).toBe(120);
      }, 60_000);
      const deliveries = receiver.received.filter((r) => ids.has(r.json?.data?.orderId));
      const byOrder = new Map<string, Set<string>>();
      for (const d of deliveries)
        byOrder.set(
          d.json.data.orderId,
          (byOrder.get(d.json.data.orderId) ?? new Set()).add(String(d.headers["x-service-event-id"])),
        );
      for (const [orderId, eventIds] of byOrder) expect(eventIds.size, `${orderId}: one delivery id`).toBe(1);
    }
    // and each is recorded SUCCEEDED (the record follows the receipt by a moment)
    await eventually(async () => {
      const [{ notSucceeded }] = await p.sql<{ notSucceeded: number }[]>`
        select count(*)::int as "notSucceeded" from webhook_deliveries d join platform_events e on e.id = d.event_id
        where e.type = 'order.created' and e.data->>'orderId' = any(${[...ids]}) and d.status <> 'SUCCEEDED'`;
      expect(notSucceeded).toBe(0);
    }, 30_000);
  }, 120_000);

  it("gives shoppers at the storefront checkout the same truth: the stock sells exactly, the rest see which product sold out", async () => {
    const item = await product(5);
    const shoppers = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const b = new BrowserSession(p.url);
        await b.get(`/s/${shop.slug}`);
        const added = await b.post(`/s/${shop.slug}/cart`, { intent: "add", productId: item.id, quantity: "1" });
        expect(added.status).toBe(302);
        const { checkoutKey } = hiddenFields((await b.get(`/s/${shop.slug}/checkout`)).html);
        return { b, checkoutKey };
      }),
    );
    const answers = await atOnce(12, (i) =>
      shoppers[i].b.post(`/s/${shop.slug}/checkout`, {
        checkoutKey: shoppers[i].checkoutKey,
        quotedAmount: "950",
        name: `Shopper ${i}`,
        phone: "555 0101",
        deliveryMethod: "PICKUP",
        paymentMethod: "CASH",
      }),
    );
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(answers.filter((a) => a.status === 302)).toHaveLength(5);
    for (const a of answers.filter((x) => x.status !== 302)) {
      expect([400, 409]).toContain(a.status);
      expect(a.html).toContain(item.name);
      expect(a.html).toMatch(/sold out|has only 0 left/);
    }
    for (const a of answers.filter((x) => x.status === 302))
      expect(a.location).toMatch(new RegExp(`^/s/${shop.slug}/orders/ord_`));
    const [row] = await p.sql<{ stock: number }[]>`select stock from products where id = ${item.id}`;
    expect(row.stock).toBe(0);
  }, 60_000);
});
