import { describe, expect, it, afterEach } from "vitest";
import { sql } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { startReceiver, type Behaviour, type Received } from "../testing/receiver";
import { appBody } from "../apps/apps.test-helpers";
import { verifyWebhook } from "../outbound/verify";
import { setClockOffset } from "../core/clock.server";

const p = await startPlatform();
afterEach(() => setClockOffset(0));

const ALL_HOOKS = ["write_payments", "write_shipping", "write_checkout"];

/** A developer sandbox with apps whose hooks answer as `answer(path)` says. */
async function shop() {
  const dev = await p.register("DEVELOPER");
  const [product] = await p.db.execute<{ id: string; price: number }>(
    sql`select id, price from products where business_id = ${dev.businessId} and stock is null and is_available order by created_at limit 1`,
  );
  return { dev, product };
}

type Hooks = { hookPoint: string; url: string; timeout?: number; priority?: number }[];

async function hookApp(
  owner: Awaited<ReturnType<typeof shop>>,
  answer: (r: Received, n: number) => Behaviour,
  hooks: Hooks,
  scopes = ["read_orders", "write_orders", ...ALL_HOOKS],
) {
  const receiver = await startReceiver(answer);
  const app = await p.request("POST", "/developer/apps", {
    token: owner.dev.token,
    // hook calls as contract section 8 describes them: API version 2026-11-21 (versions/ tests the later ones)
    body: appBody({
      scopes,
      webhookUrl: receiver.url + "/app/",
      webhookEvents: [],
      manifest: { hooks },
      apiVersion: "2026-11-21",
    }),
  });
  expect(app.status, app.text).toBe(201);
  const inst = await p.request("POST", `/developer/apps/${app.json.id}/test-install`, { token: owner.dev.token });
  return {
    receiver,
    appId: app.json.id as string,
    slug: app.json.slug as string,
    token: inst.json.accessToken as string,
    secret: inst.json.webhookSecret as string,
    installationId: inst.json.installationId as string,
  };
}

const json = (body: unknown, extra: Behaviour = {}): Behaviour => ({
  status: 200,
  body: JSON.stringify(body),
  ...extra,
});

async function order(token: string, productId: string, extra: Record<string, unknown> = {}) {
  return p.request("POST", "/app-api/orders", {
    token,
    body: {
      customer: { name: "Ada", phone: "555" },
      items: [{ productId, quantity: 2 }],
      deliveryMethod: "DELIVERY",
      address: "1 Main St",
      paymentMethod: "CASH",
      ...extra,
    },
  });
}

describe("hook calls", () => {
  it("sends each hook point its request, signed with the installation's webhook secret", async () => {
    const s = await shop();
    const a = await hookApp(
      s,
      (r) => {
        switch (r.json?.hookPoint) {
          case "checkout.payment_methods":
            return json({
              methods: [
                {
                  id: "card",
                  name: "PayCo card",
                  description: "Visa, Mastercard",
                  icon: "https://payco.example/icon.png",
                },
              ],
            });
          case "checkout.create_payment":
            return json({
              paymentUrl: "https://payco.example/pay/inv_1",
              invoiceId: "inv_1",
              expiresAt: new Date(Date.now() + 3600_000).toISOString(),
            });
          case "checkout.shipping_rates":
            return json({ fee: 450 });
          case "order.validate":
            return json({ valid: true });
          default:
            return json({ discount: 100, reason: "Welcome" });
        }
      },
      [
        { hookPoint: "checkout.payment_methods", url: "/hooks/methods" },
        { hookPoint: "checkout.create_payment", url: "/hooks/pay" },
        { hookPoint: "checkout.shipping_rates", url: "/hooks/ship" },
        { hookPoint: "order.validate", url: "/hooks/validate" },
        { hookPoint: "order.calculate_discounts", url: "/hooks/discounts" },
      ],
    );
    const res = await order(a.token, s.product.id, { paymentMethod: `${a.slug}:card` });
    expect(res.status, res.text).toBe(201);
    const byPoint = Object.fromEntries(a.receiver.received.map((r) => [r.json.hookPoint, r]));
    expect(Object.keys(byPoint).sort()).toEqual([
      "checkout.create_payment",
      "checkout.payment_methods",
      "checkout.shipping_rates",
      "order.calculate_discounts",
      "order.validate",
    ]);
    for (const r of a.receiver.received) {
      expect(r.path.startsWith("/app/hooks/")).toBe(true);
      expect(r.headers["x-hook-point"]).toBe(r.json.hookPoint);
      expect(r.headers["user-agent"]).toBe("Service-Webhooks/1.0");
      expect(verifyWebhook(r.raw, r.headers, a.secret)).toBe(true);
      expect(r.json).toMatchObject({ businessId: s.dev.businessId, timestamp: expect.any(String) });
    }
    const subtotal = s.product.price * 2;
    expect(byPoint["checkout.payment_methods"].json.data).toEqual({ businessId: s.dev.businessId });
    expect(byPoint["order.validate"].json.data).toEqual({
      items: [{ productId: s.product.id, quantity: 2 }],
      subtotal,
      deliveryMethod: "DELIVERY",
    });
    expect(byPoint["checkout.shipping_rates"].json.data).toEqual({
      deliveryMethod: "DELIVERY",
      locality: "1 Main St",
      subtotal,
      builtInFee: 300,
    });
    expect(byPoint["order.calculate_discounts"].json.data).toEqual({
      items: [{ productId: s.product.id, quantity: 2 }],
      subtotal,
      promoDiscount: 0,
      deliveryFee: 450,
    });
    expect(byPoint["checkout.create_payment"].json.data).toEqual({
      orderId: res.json.id,
      amount: String(subtotal - 100 + 450),
      currency: "USD",
      paymentMethodId: "card",
      businessId: s.dev.businessId,
      description: expect.stringContaining(res.json.orderNumber),
    });
    expect(res.json).toMatchObject({
      deliveryFee: 4.5,
      discount: 1,
      amount: (subtotal - 100 + 450) / 100,
      paymentStatus: "PENDING",
      paymentMethod: `${a.slug}:card`,
    });
    const [o] = await p.db.execute<{ payment_url: string; payment_invoice_id: string }>(
      sql`select payment_url, payment_invoice_id from orders where id = ${res.json.id}`,
    );
    expect(o).toEqual({ payment_url: "https://payco.example/pay/inv_1", payment_invoice_id: "inv_1" });

    // the payment app reports the outcome
    const paid = await p.request("POST", `/app-api/orders/${res.json.id}/payment`, {
      token: a.token,
      body: { status: "COMPLETED", invoiceId: "inv_1" },
    });
    expect(paid.json.paymentStatus).toBe("COMPLETED");
    const [ev] = await p.db.execute<{ data: any }>(
      sql`select data from platform_events where type = 'payment.completed' and data->>'orderId' = ${res.json.id}`,
    );
    // stored in the newest API version's shape (decision 041); each app gets it in its own
    expect(ev.data).toEqual({
      orderId: res.json.id,
      invoiceId: "inv_1",
      amount: { amount: Math.round(res.json.amount * 100), currency: "USD" },
    });
  });

  it("merges three apps' payment methods in priority order, each namespaced", async () => {
    const s = await shop();
    const mk = (id: string, priority: number) =>
      hookApp(s, () => json({ methods: [{ id, name: `Method ${id}` }] }), [
        { hookPoint: "checkout.payment_methods", url: "/m", priority },
      ]);
    const low = await mk("c", 300);
    const high = await mk("a", 10);
    const mid = await mk("b", 100);
    const res = await order(high.token, s.product.id, { paymentMethod: "nope" });
    expect(res.status).toBe(400);
    expect(res.json.message).toContain("is not offered");
    const { checkoutHooks } = await import("../orders/checkout-hooks.server");
    const [biz] = await p.db.execute<any>(sql`select * from businesses where id = ${s.dev.businessId}`);
    const methods = await checkoutHooks(p.db, p.env).paymentMethods({ ...biz, id: biz.id } as never);
    expect(methods.map((m) => m.id)).toEqual([`${high.slug}:a`, `${mid.slug}:b`, `${low.slug}:c`]);
  });

  it("lets the first successful shipping fee win, and falls back to the built-in fee", async () => {
    const s = await shop();
    const broken = await hookApp(s, () => ({ status: 500 }), [
      { hookPoint: "checkout.shipping_rates", url: "/s", priority: 1 },
    ]);
    await hookApp(s, () => json({ fee: 999 }), [{ hookPoint: "checkout.shipping_rates", url: "/s", priority: 50 }]);
    await hookApp(s, () => json({ fee: 111 }), [{ hookPoint: "checkout.shipping_rates", url: "/s", priority: 60 }]);
    const res = await order(broken.token, s.product.id);
    expect(res.json.deliveryFee).toBe(9.99);

    const t = await shop();
    const only = await hookApp(t, () => ({ status: 200, body: "not json" }), [
      { hookPoint: "checkout.shipping_rates", url: "/s" },
    ]);
    const fallback = await order(only.token, t.product.id);
    expect(fallback.json.deliveryFee).toBe(3);
  });

  it("rejects an order when any validator says no, showing the first reason by priority", async () => {
    const s = await shop();
    await hookApp(s, () => json({ valid: true }), [{ hookPoint: "order.validate", url: "/v", priority: 1 }]);
    await hookApp(s, () => json({ valid: false, reason: "Second reason" }), [
      { hookPoint: "order.validate", url: "/v", priority: 20 },
    ]);
    const first = await hookApp(s, () => json({ valid: false, reason: "We do not deliver after 22:00" }), [
      { hookPoint: "order.validate", url: "/v", priority: 10 },
    ]);
    const [before] = await p.db.execute<{ n: number }>(
      sql`select count(*)::int as n from orders where business_id = ${s.dev.businessId}`,
    );
    const res = await order(first.token, s.product.id);
    expect(res.status).toBe(422);
    expect(res.json.message).toBe("We do not deliver after 22:00");
    const [after] = await p.db.execute<{ n: number }>(
      sql`select count(*)::int as n from orders where business_id = ${s.dev.businessId}`,
    );
    expect(after.n).toBe(before.n);
  });

  it("adds discounts up, capped at the subtotal", async () => {
    const s = await shop();
    const a = await hookApp(s, () => json({ discount: 150 }), [{ hookPoint: "order.calculate_discounts", url: "/d" }]);
    await hookApp(s, () => json({ discount: 250, reason: "Loyalty" }), [
      { hookPoint: "order.calculate_discounts", url: "/d" },
    ]);
    const res = await order(a.token, s.product.id);
    expect(res.json.discount).toBe(4);
    await hookApp(s, () => json({ discount: 1_000_000 }), [{ hookPoint: "order.calculate_discounts", url: "/d" }]);
    const capped = await order(a.token, s.product.id);
    expect(capped.json.discount).toBe(capped.json.subtotal);
    expect(capped.json.amount).toBe(capped.json.deliveryFee);
  });

  it("skips a hook that sleeps past its timeout; the checkout does not wait for it", async () => {
    const s = await shop();
    const slow = await hookApp(s, () => json({ fee: 1 }, { delayMs: 5000 }), [
      { hookPoint: "checkout.shipping_rates", url: "/slow", timeout: 300 },
    ]);
    const started = Date.now();
    const res = await order(slow.token, s.product.id);
    const elapsed = Date.now() - started;
    expect(res.status).toBe(201);
    expect(res.json.deliveryFee).toBe(3);
    // bounded by the hook's 300 ms timeout, not by the hook's 5 s sleep
    expect(elapsed).toBeLessThan(3000);
    const [call] = await p.db.execute<{ success: boolean; error: string; duration_ms: number }>(
      sql`select success, error, duration_ms from hook_calls where installation_id = ${slow.installationId}`,
    );
    expect(call.success).toBe(false);
    expect(call.error).toMatch(/no answer within 300 ms/);
    expect(call.duration_ms).toBeGreaterThanOrEqual(300);
  });

  it("skips and logs a hook answering 500 or garbage", async () => {
    const s = await shop();
    const a = await hookApp(s, (_r, n) => (n === 1 ? { status: 500 } : json({ valid: "yes" })), [
      { hookPoint: "order.validate", url: "/v" },
    ]);
    expect((await order(a.token, s.product.id)).status).toBe(201);
    expect((await order(a.token, s.product.id)).status).toBe(201);
    const calls = await p.db.execute<{ success: boolean; status_code: number; error: string }>(
      sql`select success, status_code, error from hook_calls where installation_id = ${a.installationId} order by created_at`,
    );
    expect(calls).toEqual([
      { success: false, status_code: 500, error: "HTTP 500" },
      { success: false, status_code: 200, error: expect.stringContaining("wrong shape") },
    ]);
  });

  it("opens the breaker after 5 failures in a row, skips for 30 s, then probes once", async () => {
    const s = await shop();
    let healthy = false;
    const a = await hookApp(s, () => (healthy ? json({ fee: 700 }) : { status: 503 }), [
      { hookPoint: "checkout.shipping_rates", url: "/s" },
    ]);
    for (let i = 0; i < 5; i++) await order(a.token, s.product.id);
    expect(a.receiver.received).toHaveLength(5);
    healthy = true;
    const skipped = await order(a.token, s.product.id);
    expect(skipped.json.deliveryFee).toBe(3);
    expect(a.receiver.received).toHaveLength(5);
    setClockOffset(31_000);
    const probed = await order(a.token, s.product.id);
    expect(a.receiver.received).toHaveLength(6);
    expect(probed.json.deliveryFee).toBe(7);
    // closed again: every call goes through
    await order(a.token, s.product.id);
    expect(a.receiver.received).toHaveLength(7);
    const [skip] = await p.db.execute<{ n: number }>(
      sql`select count(*)::int as n from hook_calls where installation_id = ${a.installationId} and error like 'skipped%'`,
    );
    expect(skip.n).toBe(1);
  });

  it("never calls an uninstalled app or an installation without the hook's scope", async () => {
    const s = await shop();
    const gone = await hookApp(s, () => json({ fee: 1 }), [{ hookPoint: "checkout.shipping_rates", url: "/s" }]);
    await p.request("POST", `/developer/apps/${gone.appId}/test-uninstall`, { token: s.dev.token });
    const noScope = await hookApp(
      s,
      () => json({ fee: 2 }),
      [{ hookPoint: "checkout.shipping_rates", url: "/s" }],
      ["read_orders", "write_orders", "write_payments"],
    );
    const res = await order(noScope.token, s.product.id);
    expect(res.json.deliveryFee).toBe(3);
    expect(gone.receiver.received).toHaveLength(0);
    expect(noScope.receiver.received).toHaveLength(0);
  });

  it("cancels the order when the payment app fails to create the payment", async () => {
    const s = await shop();
    const a = await hookApp(
      s,
      (r) =>
        r.json.hookPoint === "checkout.payment_methods"
          ? json({ methods: [{ id: "qr", name: "QR pay" }] })
          : { status: 500 },
      [
        { hookPoint: "checkout.payment_methods", url: "/m" },
        { hookPoint: "checkout.create_payment", url: "/p" },
      ],
    );
    const res = await order(a.token, s.product.id, { paymentMethod: `${a.slug}:qr` });
    expect(res.status).toBe(502);
    expect(res.json.message).toMatch(/order was cancelled/);
    const [o] = await p.db.execute<{ status: string; payment_status: string }>(
      sql`select status, payment_status from orders where business_id = ${s.dev.businessId} order by created_at desc limit 1`,
    );
    expect(o).toEqual({ status: "CANCELLED", payment_status: "FAILED" });
  });
});
