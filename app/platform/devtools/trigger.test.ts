/**
 * storefront-apps trigger (contract 14, decision 035): every event of the catalogue, made for real
 * on the sandbox, arrives at the named app only, signed, with a payload that matches its declared
 * schema and a real event's shape; app.uninstalled on a real uninstall.
 */
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { eventually, startReceiver, type Received } from "../testing/receiver";
import { checkPlatformRequest } from "../testing/payload-check";
import { appBody, PRO_PLAN } from "../apps/apps.test-helpers";
import { verifyWebhook } from "../outbound/verify";
import { EVENT_NAMES, SUBSCRIBABLE_EVENTS } from "../shapes/app-catalog";
import { createProduct, createReview, productSchema, updateProduct } from "../catalog/products.server";
import { businesses } from "../../../db/schema";
import { eq } from "drizzle-orm";

const p = await startPlatform({ worker: true });
const dev = await p.register("DEVELOPER");
const SCOPES = ["read_orders", "write_orders", "read_products", "read_reviews"];

async function testInstalledApp(developer = dev, events: readonly string[] = SUBSCRIBABLE_EVENTS) {
  const receiver = await startReceiver({ status: 200 });
  const app = await p.request("POST", "/developer/apps", {
    token: developer.token,
    body: appBody({
      scopes: SCOPES,
      webhookUrl: receiver.url + "/webhooks",
      webhookEvents: events,
      // a plan, so that the test installation can hold a (test) subscription: app_subscription.updated
      pricing: [PRO_PLAN],
    }),
  });
  expect(app.status).toBe(201);
  const inst = await p.request("POST", `/developer/apps/${app.json.id}/test-install`, { token: developer.token });
  expect(inst.status).toBe(201);
  const hooks = await p.request("GET", "/webhooks", { token: inst.json.accessToken });
  return {
    receiver,
    appId: app.json.id as string,
    token: inst.json.accessToken as string,
    secret: inst.json.webhookSecret as string,
    installationId: inst.json.installationId as string,
    webhookId: hooks.json.data[0].id as string,
  };
}

const trigger = (appId: string, event: unknown, token = dev.token) =>
  p.request("POST", `/developer/apps/${appId}/trigger`, { token, body: { event } });

const deliveriesOf = (r: { received: Received[] }, event: string) =>
  r.received.filter((x) => x.headers["x-webhook-event"] === event);

/** Where two values differ in structure: keys, and the JSON type of each leaf (a null matches any leaf: a nullable field). */
function shapeDifferences(a: unknown, b: unknown, at = ""): string[] {
  if (a === null || b === null)
    return typeof (a ?? b) === "object" && (a ?? b) !== null ? [`${at}: null and object`] : [];
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b)
      ? a.length && b.length
        ? shapeDifferences(a[0], b[0], `${at}[]`)
        : []
      : [`${at}: array and not`];
  if (typeof a === "object" && typeof b === "object") {
    const keys = [...new Set([...Object.keys(a as object), ...Object.keys(b as object)])];
    return keys.flatMap((k) =>
      k in (a as object) && k in (b as object)
        ? shapeDifferences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${at}.${k}`)
        : [`${at}.${k}: only in one`],
    );
  }
  return typeof a === typeof b ? [] : [`${at}: ${typeof a} and ${typeof b}`];
}

describe("storefront-apps trigger", () => {
  // two apps of one developer, both test-installed on the same sandbox and subscribed to every event
  const appsP = Promise.all([testInstalledApp(), testInstalledApp()]);

  it("makes every event of the catalogue for real and delivers it to the named app only, signed, as declared", async () => {
    const [a, b] = await appsP;
    // app_subscription.updated tells of the installation's latest subscription: it asks for one (PENDING, nothing sent)
    const subscribed = await p.request("POST", "/app-api/billing/subscriptions", {
      token: a.token,
      body: { planId: "pro", returnUrl: a.receiver.url + "/billing/return" },
    });
    expect(subscribed.status, subscribed.text).toBe(201);
    let expected = 0;
    for (const event of EVENT_NAMES) {
      const res = await trigger(a.appId, event);
      expect(res.status, `${event}: ${res.text}`).toBe(202);
      expect(res.json).toMatchObject({ event, businessId: dev.businessId, installationId: a.installationId });
      expect(res.json.deliveries, event).toHaveLength(1);
      expect(res.json.deliveries[0]).toMatchObject({ webhookId: a.webhookId, url: a.receiver.url + "/webhooks" });
      await a.receiver.waitFor(++expected);
      const [got] = deliveriesOf(a.receiver, event);
      expect(got, event).toBeTruthy();
      expect(got.headers["x-service-event-id"]).toBe(res.json.deliveries[0].id);
      expect(got.json.id).toBe(res.json.deliveries[0].id);
      expect(got.headers["x-webhook-id"]).toBe(a.webhookId);
      expect(verifyWebhook(got.raw, got.headers, a.secret), event).toBe(true);
      expect(checkPlatformRequest(got.headers, got.raw), event).toEqual([]);
      expect(got.json.businessId).toBe(dev.businessId);
    }
    // nothing else reached the named app (no setup event: the product.created before a deletion, the order before a move)
    expect(a.receiver.received.map((r) => r.headers["x-webhook-event"])).toEqual([...EVENT_NAMES]);
    // and nothing at all reached the other app on the same sandbox, though it subscribes to every event
    await new Promise((r) => setTimeout(r, 1000));
    expect(b.receiver.received).toHaveLength(0);

    // the payloads are what the real code makes, from real objects
    const data = (event: string) => deliveriesOf(a.receiver, event)[0].json.data;
    const order = await p.request("GET", `/app-api/orders/${data("order.created").orderId}`, { token: a.token });
    expect(order.status).toBe(200);
    expect(order.json.amount).toEqual(data("order.created").amount);
    expect(data("order.created")).toMatchObject({ paymentMethod: "CASH", isGuest: true, deliveryMethod: "DELIVERY" });
    expect(data("order.status_changed")).toMatchObject({ previousStatus: "PENDING", status: "CONFIRMED" });
    const delivered = await p.request("GET", `/app-api/orders/${data("order.delivered").orderId}`, { token: a.token });
    expect(delivered.json.status).toBe("DELIVERED");
    const cancelled = await p.request("GET", `/app-api/orders/${data("order.cancelled").orderId}`, { token: a.token });
    expect(cancelled.json.status).toBe("CANCELLED");
    const paid = await p.request("GET", `/app-api/orders/${data("payment.completed").orderId}`, { token: a.token });
    expect(paid.json).toMatchObject({ paymentStatus: "COMPLETED", amount: data("payment.completed").amount });
    expect(data("payment.completed").invoiceId).toMatch(/^inv_trigger_/);
    const product = await p.request("GET", `/app-api/products/${data("product.created").id}`, { token: a.token });
    expect(product.json).toEqual(data("product.created"));
    expect((await p.request("GET", `/app-api/products/${data("product.deleted").id}`, { token: a.token })).status).toBe(
      404,
    );
    expect(data("product.out_of_stock")).toMatchObject({ stock: 0, threshold: 5 });
    expect(data("product.low_stock")).toMatchObject({ stock: 3, threshold: 5 });
    expect(data("product.back_in_stock")).toMatchObject({ stock: 20, threshold: 5 });
    const reviews = await p.request("GET", "/app-api/reviews?limit=100", { token: a.token });
    expect(reviews.json.data).toContainEqual(data("review.created"));
    expect(data("review.created").authorName).toBe("Sample Shopper");
    expect(data("webhook.test")).toEqual({ message: expect.any(String), webhookId: a.webhookId });
    expect(data("app.uninstalled")).toEqual({
      installationId: a.installationId,
      businessId: dev.businessId,
      uninstalledAt: expect.any(String),
    });
    expect(data("business.data_erasure")).toEqual({
      appId: a.appId,
      businessId: dev.businessId,
      uninstalledAt: expect.any(String),
    });
    // built for the installation without uninstalling it: still installed, its token works, no erasure recorded
    const status = await p.request("GET", `/developer/apps/${a.appId}/test-status`, { token: dev.token });
    expect(status.json.installed).toBe(true);
    expect((await p.request("GET", "/app-api/products", { token: a.token })).status).toBe(200);
    await eventually(async () => {
      const [row] = await p.db.execute<{ status: string; n: number }>(
        sql`select d.status, (select count(*)::int from installations where id = ${a.installationId} and erasure_delivered_at is not null) as n
            from webhook_deliveries d where d.installation_id = ${a.installationId} and d.event = 'business.data_erasure'`,
      );
      expect(row).toMatchObject({ status: "SUCCEEDED", n: 0 });
    });
  });

  it("sends the same shapes as real events", async () => {
    const [a, b] = await appsP;
    const [business] = await p.db.select().from(businesses).where(eq(businesses.id, dev.businessId));
    // real changes, as a shopper, an app and a merchant make them: they reach both apps
    const before = b.receiver.received.length;
    const [prod] = await p.db.execute<{ id: string }>(
      sql`select id from products where business_id = ${dev.businessId} and stock is null and is_available and status = 'ACTIVE' limit 1`,
    );
    const placed = await p.request("POST", "/app-api/orders", {
      token: b.token,
      body: {
        customer: { name: "Al", phone: "555" },
        items: [{ productId: prod.id, quantity: 1 }],
        deliveryMethod: "PICKUP",
        paymentMethod: "CARD",
      },
    });
    expect(placed.status).toBe(201);
    await p.request("PATCH", `/app-api/orders/${placed.json.id}/status`, {
      token: b.token,
      body: { status: "CONFIRMED" },
    });
    const made = await createProduct(
      p.db,
      business.id,
      productSchema.parse({ name: "Real one", price: 500, stock: 9 }),
    );
    await updateProduct(p.db, business.id, made.id, { stock: 3 });
    await createReview(p.db, business.id, made.id, { rating: 4, comment: "Fine", authorName: "Bo" });
    const real = [
      "order.created",
      "order.status_changed",
      "product.created",
      "product.updated",
      "product.low_stock",
      "review.created",
    ];
    await b.receiver.waitFor(before + real.length);
    for (const event of real) {
      const [realOne] = deliveriesOf(b.receiver, event);
      const [triggered] = deliveriesOf(a.receiver, event);
      expect(shapeDifferences(triggered.json, realOne.json), event).toEqual([]);
    }
  });

  it("answers 409 saying what to do when the event could reach no registration of the app, 400 for an unknown event, 404 for another's app", async () => {
    const [a] = await appsP;
    const bare = await p.request("POST", "/developer/apps", {
      token: dev.token,
      body: appBody({ scopes: SCOPES, webhookUrl: "http://127.0.0.1:9/none", webhookEvents: ["order.created"] }),
    });
    const notInstalled = await trigger(bare.json.id, "order.created");
    expect(notInstalled.status).toBe(409);
    expect(notInstalled.json.message).toContain("test-install");
    await p.request("POST", `/developer/apps/${bare.json.id}/test-install`, { token: dev.token });
    const notSubscribed = await trigger(bare.json.id, "review.created");
    expect(notSubscribed.status).toBe(409);
    expect(notSubscribed.json.message).toContain("webhookEvents");
    const unknown = await trigger(a.appId, "order.exploded");
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toContain("app.uninstalled");
    const stranger = await p.register("DEVELOPER");
    expect((await trigger(a.appId, "order.created", stranger.token)).status).toBe(404);
    // nothing was made for the refused triggers
    const [orders] = await p.db.execute<{ n: number }>(
      sql`select count(*)::int as n from orders where business_id = ${dev.businessId} and notes = 'Placed by storefront-apps trigger'`,
    );
    expect(orders.n).toBe(6); // the order.* and payment.* triggers of the first test
  });
});

describe("app.uninstalled", () => {
  it("is sent at once on a real uninstall to the install registration, signed with the installation's secret", async () => {
    const developer = await p.register("DEVELOPER");
    const app = await testInstalledApp(developer, ["order.created"]);
    const un = await p.request("POST", `/developer/apps/${app.appId}/test-uninstall`, { token: developer.token });
    expect(un.status).toBe(200);
    await app.receiver.waitFor(1);
    const [got] = app.receiver.received;
    expect(got.headers["x-webhook-event"]).toBe("app.uninstalled");
    expect(got.headers["x-webhook-id"]).toBe(app.webhookId);
    expect(verifyWebhook(got.raw, got.headers, app.secret)).toBe(true);
    const [inst] = await p.db.execute<{ uninstalled_at: string }>(
      sql`select uninstalled_at from installations where id = ${app.installationId}`,
    );
    expect(got.json.data).toEqual({
      installationId: app.installationId,
      businessId: developer.businessId,
      uninstalledAt: new Date(inst.uninstalled_at).toISOString(),
    });
    expect(checkPlatformRequest(got.headers, got.raw)).toEqual([]);
  });

  it("is retried like any delivery", async () => {
    const developer = await p.register("DEVELOPER");
    const app = await testInstalledApp(developer, ["order.created"]);
    app.receiver.set({ status: 503 });
    await p.request("POST", `/developer/apps/${app.appId}/test-uninstall`, { token: developer.token });
    await app.receiver.waitFor(1);
    await eventually(async () => {
      const [d] = await p.db.execute<{ status: string; attempts: number; next_attempt_at: string | null }>(
        sql`select status, attempts, next_attempt_at from webhook_deliveries where installation_id = ${app.installationId} and event = 'app.uninstalled'`,
      );
      expect(d).toMatchObject({ status: "RETRYING", attempts: 1 });
      expect(d.next_attempt_at).not.toBeNull();
    });
  });

  it("cannot be subscribed to (it is always sent)", async () => {
    const [a] = await appsPromiseForSubscribe();
    const res = await p.request("POST", "/webhooks", {
      token: a.token,
      body: { url: a.receiver.url, events: ["app.uninstalled"] },
    });
    expect(res.status).toBe(400);
    const created = await p.request("POST", "/developer/apps", {
      token: dev.token,
      body: appBody({ webhookEvents: ["app.uninstalled"] }),
    });
    expect(created.status).toBe(400);
  });
});

let subscribeApps: ReturnType<typeof testInstalledApp>[] | undefined;
function appsPromiseForSubscribe() {
  subscribeApps ??= [testInstalledApp(undefined, ["order.created"])];
  return Promise.all(subscribeApps);
}

describe("the receivers' check", () => {
  it("flags a delivery or hook call that does not match its declared schema", async () => {
    const headers = { "user-agent": "Service-Webhooks/1.0", "x-webhook-event": "order.created" };
    const made = {
      id: "dlv_1",
      event: "order.created",
      timestamp: new Date().toISOString(),
      webhookId: "wh_1",
      businessId: "biz_1",
      // the made-up sample the old trigger sent
      data: { orderId: "o", orderNumber: "1", totalAmount: 1, items: [], customerEmail: "x@y.z" },
    };
    const problems = checkPlatformRequest(headers, JSON.stringify(made))!;
    expect(problems.join("\n")).toContain("totalAmount");
    expect(problems.join("\n")).toContain("amount");
    const hook = { "user-agent": "Service-Webhooks/1.0", "x-hook-point": "order.validate" };
    expect(
      checkPlatformRequest(
        hook,
        JSON.stringify({ hookPoint: "order.validate", businessId: "b", timestamp: "t", data: {} }),
      ),
    ).not.toEqual([]);
    expect(checkPlatformRequest({ "user-agent": "curl" }, "{}")).toBeNull();

    // a receiver records it as a violation (and would fail its test file when it closes)
    const receiver = await startReceiver({ status: 200 });
    await fetch(receiver.url, { method: "POST", headers, body: JSON.stringify(made) });
    expect(receiver.violations.join("\n")).toContain("totalAmount");
    receiver.violations.length = 0;
  });
});

describe("storefront-apps trigger hook", () => {
  it("calls only the named app's hook as a sandbox checkout would, and says what the platform made of the answer", async () => {
    const developer = await p.register("DEVELOPER");
    const hookApp = async (answers: Record<string, unknown>) => {
      const receiver = await startReceiver((r) => ({
        status: 200,
        body: JSON.stringify(answers[r.json?.hookPoint] ?? {}),
      }));
      const app = await p.request("POST", "/developer/apps", {
        token: developer.token,
        body: appBody({
          scopes: ["read_orders", "write_payments", "write_shipping", "write_checkout"],
          webhookUrl: receiver.url + "/app",
          webhookEvents: [],
          manifest: {
            hooks: [
              { hookPoint: "checkout.payment_methods", url: "/methods" },
              { hookPoint: "checkout.create_payment", url: "/pay" },
              { hookPoint: "checkout.shipping_rates", url: "/ship" },
              { hookPoint: "order.validate", url: "/validate" },
              { hookPoint: "order.calculate_discounts", url: "/discounts" },
            ],
          },
        }),
      });
      expect(app.status).toBe(201);
      expect(
        (await p.request("POST", `/developer/apps/${app.json.id}/test-install`, { token: developer.token })).status,
      ).toBe(201);
      return { receiver, appId: app.json.id as string };
    };
    const a = await hookApp({
      "checkout.payment_methods": { methods: [{ id: "card", name: "Sample Pay" }] },
      "checkout.create_payment": { paymentUrl: "https://pay.example/i/1", invoiceId: "inv_1" },
      // answers in the app's API version (2026-11-27: money as {amount, currency})
      "checkout.shipping_rates": { fee: { amount: 450, currency: "USD" } },
      "order.validate": { valid: false, reason: "We do not deliver there" },
      "order.calculate_discounts": { discount: { amount: 100, currency: "USD" }, reason: "Welcome" },
    });
    const b = await hookApp({ "order.validate": { valid: true } });
    const hook = (hookPoint: string) =>
      p.request("POST", `/developer/apps/${a.appId}/trigger-hook`, { token: developer.token, body: { hookPoint } });

    const ship = await hook("checkout.shipping_rates");
    expect(ship.status, ship.text).toBe(200);
    expect(ship.json.calls).toEqual([
      { ok: true, statusCode: 200, durationMs: expect.any(Number), answer: { fee: { amount: 450, currency: "USD" } } },
    ]);
    expect(ship.json.outcome).toMatchObject({ quote: { deliveryFee: 450 } });
    expect(ship.json.outcome.summary).toContain("the app's fee");
    const validate = await hook("order.validate");
    expect(validate.json.outcome.summary).toContain("We do not deliver there");
    const discounts = await hook("order.calculate_discounts");
    expect(discounts.json.outcome).toMatchObject({ quote: { discount: 100, discountReason: "Welcome" } });
    const methods = await hook("checkout.payment_methods");
    expect(methods.json.outcome.methods).toEqual([{ id: expect.stringMatching(/:card$/), name: "Sample Pay" }]);
    const pay = await hook("checkout.create_payment");
    expect(pay.json.outcome.payment).toEqual({ paymentUrl: "https://pay.example/i/1", invoiceId: "inv_1" });
    const order = await p.db.execute<{ payment_status: string; payment_invoice_id: string }>(
      sql`select payment_status, payment_invoice_id from orders where id = ${pay.json.outcome.orderId}`,
    );
    expect(order[0]).toEqual({ payment_status: "PENDING", payment_invoice_id: "inv_1" });
    // each call was the one asked for (create_payment after the methods the trigger and the checkout ask for), and the other app heard nothing
    expect(a.receiver.received.map((r) => r.json.hookPoint)).toEqual([
      "checkout.shipping_rates",
      "order.validate",
      "order.calculate_discounts",
      "checkout.payment_methods",
      "checkout.payment_methods",
      "checkout.payment_methods",
      "checkout.create_payment",
    ]);
    expect(b.receiver.received).toHaveLength(0);

    // a skipped call is reported with its reason, and the built-in fee is used
    a.receiver.set({ status: 500 });
    const skipped = await hook("checkout.shipping_rates");
    expect(skipped.json.calls[0]).toMatchObject({ ok: false, statusCode: 500 });
    expect(skipped.json.outcome.summary).toContain("built-in fee");
    // an app without the hook: 409 saying what to do
    const bare = await p.request("POST", "/developer/apps", { token: developer.token, body: appBody() });
    await p.request("POST", `/developer/apps/${bare.json.id}/test-install`, { token: developer.token });
    const none = await p.request("POST", `/developer/apps/${bare.json.id}/trigger-hook`, {
      token: developer.token,
      body: { hookPoint: "order.validate" },
    });
    expect(none.status).toBe(409);
  });
});

describe("a triggered order goes through the checkout with the app's own hooks", () => {
  it("order.created carries the discount the app's order.calculate_discounts hook gave; another app's hooks are not called", async () => {
    const developer = await p.register("DEVELOPER");
    let verdict: Record<string, unknown> = { valid: true };
    const hookApp = async (answers: Record<string, () => unknown>) => {
      const receiver = await startReceiver((r) =>
        r.json?.hookPoint
          ? { status: 200, body: JSON.stringify(answers[r.json.hookPoint]?.() ?? {}) }
          : { status: 200 },
      );
      const app = await p.request("POST", "/developer/apps", {
        token: developer.token,
        body: appBody({
          scopes: ["read_orders", "write_checkout"],
          webhookUrl: receiver.url + "/webhooks",
          webhookEvents: ["order.created"],
          manifest: {
            hooks: [
              { hookPoint: "order.validate", url: "/validate" },
              { hookPoint: "order.calculate_discounts", url: "/discounts" },
            ],
          },
        }),
      });
      expect(app.status, app.text).toBe(201);
      const inst = await p.request("POST", `/developer/apps/${app.json.id}/test-install`, { token: developer.token });
      expect(inst.status).toBe(201);
      return { receiver, appId: app.json.id as string, token: inst.json.accessToken as string };
    };
    // answers in the apps' API version (the current one: money as {amount, currency})
    const a = await hookApp({
      "order.validate": () => verdict,
      "order.calculate_discounts": () => ({ discount: { amount: 300, currency: "USD" }, reason: "Loyalty: 3 off" }),
    });
    const b = await hookApp({
      "order.validate": () => ({ valid: false, reason: "the other app refuses everything" }),
      "order.calculate_discounts": () => ({ discount: { amount: 900, currency: "USD" }, reason: "Other app" }),
    });

    const res = await trigger(a.appId, "order.created", developer.token);
    expect(res.status, res.text).toBe(202);
    const hookCalls = a.receiver.received.filter((r) => r.json?.hookPoint);
    expect(hookCalls.map((r) => [r.path, r.json.hookPoint])).toEqual([
      ["/webhooks/validate", "order.validate"],
      ["/webhooks/discounts", "order.calculate_discounts"],
    ]);
    expect(hookCalls[1].headers["api-version"]).toBeTruthy();
    expect(b.receiver.received).toEqual([]);

    // the delivered order is the one the checkout priced with the app's discount
    await a.receiver.waitFor(3);
    const [delivered] = deliveriesOf(a.receiver, "order.created");
    const orderId = delivered.json.data.orderId as string;
    expect(res.json.object).toEqual({ kind: "order", id: orderId });
    const [row] = await p.db.execute<{
      discount: number;
      discount_reason: string;
      subtotal: number;
      delivery_fee: number;
      amount: number;
    }>(sql`select discount, discount_reason, subtotal, delivery_fee, amount from orders where id = ${orderId}`);
    expect(row).toMatchObject({ discount: 300, discount_reason: "Loyalty: 3 off" });
    expect(row.amount).toBe(row.subtotal - 300 + row.delivery_fee);
    const read = await p.request("GET", `/app-api/orders/${orderId}`, { token: a.token });
    // order.created's total is the discounted one; the App API's order shows the discount itself
    expect(delivered.json.data.amount).toEqual(read.json.amount);
    expect(read.json.discount).toEqual({ amount: 300, currency: "USD" });
    expect(read.json.amount).toEqual({ amount: row.amount, currency: "USD" });

    // the app's order.validate refusing: the trigger says so, as a shopper's checkout would be refused
    verdict = { valid: false, reason: "Closed on test day" };
    const refused = await trigger(a.appId, "order.created", developer.token);
    expect(refused.status).toBe(422);
    expect(refused.json.message).toContain("Closed on test day");
    expect(refused.json.message).toContain("order.validate");
    expect(b.receiver.received).toEqual([]);
  });
});
