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
import { SCOPE_NAMES, SUBSCRIBABLE_EVENTS } from "../shapes/app-catalog";
import { createProduct, updateProduct } from "../catalog/products.server";
import { responseChecker } from "../testing/openapi-check";
import { toMinor } from "../core/money";
import { verifyHookCall, verifyWebhook } from "../../../packages/app-sdk/src/webhooks";

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
const EVENTS = SUBSCRIBABLE_EVENTS;

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
  /**
   * An order's items come in the order of their random ids (as before this work), so they differ
   * between two runs: each `items` list is put in one order on both sides; everything else is
   * compared as the bytes were (JSON.stringify gives back the text it parsed for these answers).
   */
  // the demo data's pages and reviews share their creation times, so lists of them tie-break on random ids too
  const TIED = ["pages.list", "reviews.list"];
  const itemsInOrder = (text: string, name: string) => {
    if (!text) return text;
    return JSON.stringify(JSON.parse(text), (key, value) =>
      (key === "items" || (key === "data" && TIED.includes(name))) && Array.isArray(value)
        ? [...value].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))
        : value,
    );
  };
  /**
   * The demo's orders are placed hours before the seed, so whether one falls on the shop's today
   * depends on the hour the suite runs: today's two figures are blanked, on both sides, in their
   * declared form (a count and an amount; any other form does not match and stays to differ).
   */
  const withoutToday = (recorded: typeof record): typeof record.answers => ({
    ...recorded.answers,
    dashboard: {
      ...recorded.answers.dashboard,
      body: recorded.answers.dashboard.body.replace(
        /^\{"today":\{"orders":\d+,"revenue":[\d.]+\}/,
        '{"today":{"orders":0,"revenue":0}',
      ),
    },
  });
  it("answers every operation as before", () => {
    const answers = withoutToday(record);
    const before = withoutToday(golden);
    expect(Object.keys(answers)).toEqual(Object.keys(before));
    for (const name of Object.keys(before)) {
      expect(answers[name].status, name).toBe(before[name].status);
      expect(itemsInOrder(answers[name].body, name), name).toBe(itemsInOrder(before[name].body, name));
    }
    // today holds at least the order this test placed
    expect(JSON.parse(record.answers.dashboard.body).today.orders).toBeGreaterThanOrEqual(1);
    // the single order (one item) and the dashboard are compared as sent, without any re-ordering
    expect(answers["orders.one"]).toEqual(before["orders.one"]);
    expect(answers["products.list"]).toEqual(before["products.list"]);
    expect(answers.dashboard).toEqual(before.dashboard);
  });
  // the envelopes gain apiVersion (contract 12); everything else is as it was
  const strip = (line: string) => (CAPTURE ? line : line.replace(',"apiVersion":"2026-11-21"', ""));
  it("sends the hook calls as before (the envelope gains apiVersion)", () => {
    expect(record.hooks.map(strip)).toEqual(golden.hooks);
  });
  it("sends the webhooks' data as before (the envelope gains apiVersion)", () => {
    expect(record.webhooks.map(strip)).toEqual(golden.webhooks);
  });
});

const newDoc = (await p.request("GET", "/app-api/openapi.json?version=2026-11-27")).json;
const oldDoc = (await p.request("GET", "/app-api/openapi.json?version=2026-11-21")).json;

describe.skipIf(CAPTURE)("2026-11-27 beside it", () => {
  const checkNew = responseChecker(newDoc);
  const checkOld = responseChecker(oldDoc);
  const DOC_PATHS: Record<string, [string, string]> = {
    "products.list": ["GET", "/app-api/products"],
    "products.one": ["GET", "/app-api/products/{id}"],
    "products.slug": ["GET", "/app-api/products/slug/{slug}"],
    "orders.list": ["GET", "/app-api/orders"],
    "orders.one": ["GET", "/app-api/orders/{id}"],
    "reviews.list": ["GET", "/app-api/reviews"],
    "reviews.stats": ["GET", "/app-api/reviews/stats"],
    dashboard: ["GET", "/app-api/analytics/dashboard"],
    business: ["GET", "/app-api/business"],
    "pages.list": ["GET", "/app-api/pages"],
  };
  const read = async (a: typeof oldApp, path: string, headers?: Record<string, string>) =>
    p.request("GET", path, { token: a.token, headers });

  it("answers every read in the new shape, valid against the 2026-11-27 document, naming its version", async () => {
    for (const [name, path] of READS) {
      const res = await read(newApp, path);
      expect(res.status, name).toBe(200);
      expect(res.headers.get("api-version"), name).toBe("2026-11-27");
      const [method, docPath] = DOC_PATHS[name];
      checkNew(docPath, method, res.status, res.json);
    }
    const product = (await read(newApp, `/app-api/products/${made.id}`)).json;
    expect(product.price).toEqual({ amount: 999, currency: "USD" });
  });

  it("the old app's answers validate against the 2026-11-21 document and name 2026-11-21", async () => {
    for (const [name, path] of READS) {
      const res = await read(oldApp, path);
      expect(res.headers.get("api-version"), name).toBe("2026-11-21");
      const [method, docPath] = DOC_PATHS[name];
      checkOld(docPath, method, res.status, res.json);
    }
    // and the documents differ exactly where money is
    expect(newDoc.components.schemas.Money.properties.amount.type).toBe("integer");
    expect(oldDoc.components.schemas.Money.type).toBe("number");
    expect(newDoc.info.version).toBe("2026-11-27");
    expect(oldDoc.info.version).toBe("2026-11-21");
  });

  it("the same order seen by the old and the new app agrees to the cent", async () => {
    const o = (await read(oldApp, `/app-api/orders/${orderId}`)).json;
    const n = (await read(newApp, `/app-api/orders/${orderId}`)).json;
    for (const field of ["subtotal", "discount", "deliveryFee", "amount"]) {
      expect(n[field].currency, field).toBe(o.currency);
      expect(n[field].amount, field).toBe(toMinor(o[field], o.currency));
    }
    expect(n.amount.amount).toBe(3450 - 125 + 450);
    n.items.forEach((item: { price: { amount: number } }, i: number) =>
      expect(item.price.amount).toBe(toMinor(o.items[i].price, o.currency)),
    );
    const { subtotal: _a, discount: _b, deliveryFee: _c, amount: _d, items: _e, ...restOld } = o;
    const { subtotal: _f, discount: _g, deliveryFee: _h, amount: _i, items: _j, ...restNew } = n;
    expect(restNew).toEqual(restOld);
    const od = (await read(oldApp, "/app-api/analytics/dashboard")).json;
    const nd = (await read(newApp, "/app-api/analytics/dashboard")).json;
    expect(nd.last30Days.revenue.amount).toBe(toMinor(od.last30Days.revenue, "USD"));
    expect(nd.averageOrderValue.amount).toBe(toMinor(od.averageOrderValue, "USD"));
  });

  it("Api-Version overrides the pin per request, both ways", async () => {
    const up = await read(oldApp, `/app-api/orders/${orderId}`, { "Api-Version": "2026-11-27" });
    expect(up.headers.get("api-version")).toBe("2026-11-27");
    expect(up.json.amount).toEqual({ amount: 3775, currency: "USD" });
    const down = await read(newApp, `/app-api/orders/${orderId}`, { "Api-Version": "2026-11-21" });
    expect(down.headers.get("api-version")).toBe("2026-11-21");
    expect(down.json.amount).toBe(37.75);
  });

  it("an unknown version is 400 naming the supported ones; errors name their version too", async () => {
    const bad = await read(newApp, "/app-api/products", { "Api-Version": "2025-01-01" });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({
      statusCode: 400,
      message: 'Unknown API version "2025-01-01" in the Api-Version header; supported: 2026-11-21, 2026-11-27',
      error: "Bad Request",
    });
    expect(bad.headers.get("api-version")).toBe("2026-11-27");
    const missing = await read(oldApp, "/app-api/orders/ord_nope");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("api-version")).toBe("2026-11-21");
    const noToken = await p.request("GET", "/app-api/products", { headers: { "Api-Version": "2026-11-21" } });
    expect(noToken.status).toBe(401);
    expect(noToken.headers.get("api-version")).toBe("2026-11-21");
    const nowhere = await read(oldApp, "/app-api/nowhere");
    expect(nowhere.status).toBe(404);
    expect(nowhere.headers.get("api-version")).toBe("2026-11-27");
    // the supported versions answer without deprecation headers today
    expect(missing.headers.get("deprecation")).toBeNull();
  });

  it("each app receives the same order.created in its own shape, signed, verified by the SDK", async () => {
    // 4 hook calls (create_payment goes only to the app whose method was chosen) and 6 webhooks
    const newReceived = await receivedBy("new", 10);
    const created = (r: Received[]) => r.find((x) => x.json?.event === "order.created")!;
    const o = created(oldReceived.all);
    const n = created(newReceived.all);
    const oldEnvelope = verifyWebhook<Record<string, any>>(o.raw, o.headers, oldApp.secret);
    const newEnvelope = verifyWebhook<Record<string, any>>(n.raw, n.headers, newApp.secret);
    expect(o.headers["api-version"]).toBe("2026-11-21");
    expect(n.headers["api-version"]).toBe("2026-11-27");
    expect(oldEnvelope.apiVersion).toBe("2026-11-21");
    expect(newEnvelope.apiVersion).toBe("2026-11-27");
    expect(oldEnvelope.data.amount).toBe(37.75);
    expect(newEnvelope.data.amount).toEqual({ amount: 3775, currency: "USD" });
    expect(newEnvelope.data.deliveryFee).toEqual({ amount: 450, currency: "USD" });
    expect(newEnvelope.data.orderId).toBe(oldEnvelope.data.orderId);
    const product = newReceived.all.find((x) => x.json?.event === "product.updated")!;
    expect(product.json.data.price).toEqual({ amount: 999, currency: "USD" });
    // the hook calls in the new shape, and its answers in {amount, currency} were taken (its fee equals the old app's)
    const ship = newReceived.all.find((x) => x.json?.hookPoint === "checkout.shipping_rates")!;
    const call = verifyHookCall<Record<string, any>>(ship.raw, ship.headers, newApp.secret);
    expect(call.data.subtotal).toEqual({ amount: 3450, currency: "USD" });
    expect(call.data.builtInFee).toEqual({ amount: 300, currency: "USD" });
    expect(ship.headers["api-version"]).toBe("2026-11-27");
    // the delivery log names the version each was sent in
    const [oldRow] = await p.db.execute<{ api_version: string }>(
      sql`select api_version from webhook_deliveries where id = ${oldEnvelope.id}`,
    );
    const [newRow] = await p.db.execute<{ api_version: string }>(
      sql`select api_version from webhook_deliveries where id = ${newEnvelope.id}`,
    );
    expect([oldRow.api_version, newRow.api_version]).toEqual(["2026-11-21", "2026-11-27"]);
  });

  it("GET /app-api/versions lists the current and the supported versions, without a token", async () => {
    const res = await p.request("GET", "/app-api/versions");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      current: "2026-11-27",
      supported: [
        { version: "2026-11-27", releasedAt: "2026-11-27T00:00:00.000Z", status: "CURRENT" },
        {
          version: "2026-11-21",
          releasedAt: "2026-11-21T00:00:00.000Z",
          status: "SUPPORTED",
          sunsetAt: "2027-11-27T00:00:00.000Z",
        },
      ],
    });
  });
});
