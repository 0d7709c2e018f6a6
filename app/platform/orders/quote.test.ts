/**
 * quote(): the checkout's total before the order, by the pipeline's own steps, against the real
 * database and real hook servers; and the checkout page that shows it (without JavaScript: the
 * page's HTML and forms, as BrowserSession posts them).
 */
import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { startReceiver, type Behaviour, type Received } from "../testing/receiver";
import { BrowserSession } from "../testing/browser";
import { appBody } from "../apps/apps.test-helpers";
import { checkoutHooks } from "./checkout-hooks.server";
import { businesses, orders } from "../../../db/schema";
import { checkout, quote, TotalChangedError } from "./checkout.server";

const p = await startPlatform();

/** A developer's sandbox business (it has demo products) and one product without tracked stock. */
async function shop() {
  const dev = await p.register("DEVELOPER");
  const [business] = await p.db.select().from(businesses).where(eq(businesses.id, dev.businessId));
  const [product] = await p.db.execute<{ id: string; price: number; name: string }>(
    sql`select id, price, name from products where business_id = ${dev.businessId} and stock is null and is_available and status = 'ACTIVE' order by created_at limit 1`,
  );
  return { dev, business, product };
}

const json = (body: unknown): Behaviour => ({ status: 200, body: JSON.stringify(body) });

/** An app installed (test install) on the shop, whose hooks answer as `answer` says. */
async function hookApp(
  s: Awaited<ReturnType<typeof shop>>,
  answer: (r: Received) => Behaviour,
  hooks: { hookPoint: string; url: string }[],
) {
  const receiver = await startReceiver(answer);
  const app = await p.request("POST", "/developer/apps", {
    token: s.dev.token,
    body: appBody({
      scopes: ["read_orders", "write_shipping", "write_checkout"],
      webhookUrl: receiver.url + "/app",
      webhookEvents: [],
      manifest: { hooks },
      // hook answers as contract 8 describes them (minor-unit numbers): API version 2026-11-21
      apiVersion: "2026-11-21",
    }),
  });
  expect(app.status, app.text).toBe(201);
  const inst = await p.request("POST", `/developer/apps/${app.json.id}/test-install`, { token: s.dev.token });
  expect(inst.status, inst.text).toBe(201);
  return receiver;
}

const counters = async (businessId: string) => {
  const [row] = await p.db.execute<{ n: number; last: number }>(
    sql`select (select count(*) from orders where business_id = ${businessId})::int as n, (select last_order_number from businesses where id = ${businessId}) as last`,
  );
  return row;
};

const customer = { name: "Ada", phone: "555 0100" };

/** The checkout page's form as a shopper fills it in (without JavaScript: BrowserSession posts it). */
const shopperForm = {
  ...customer,
  email: "",
  address: "",
  notes: "",
  paymentMethod: "CASH",
  checkoutKey: "sf-key-aaaaaaaaaaaaaaaaaaaa",
};

describe("quote()", () => {
  it("without hooks: the built-in fee for delivery, none for pickup, no discount; nothing is written, and the order charges the quote", async () => {
    const s = await shop();
    const before = await counters(s.business.id);
    const items = [{ productId: s.product.id, quantity: 2 }];
    const delivery = await quote(p.db, s.business, { items, deliveryMethod: "DELIVERY", address: "1 Main St" });
    expect(delivery).toEqual({
      ok: true,
      subtotal: s.product.price * 2,
      deliveryFee: 300,
      discount: 0,
      discountReason: null,
      amount: s.product.price * 2 + 300,
      currency: "USD",
    });
    const pickup = await quote(p.db, s.business, { items, deliveryMethod: "PICKUP" });
    expect(pickup).toMatchObject({ ok: true, deliveryFee: 0, amount: s.product.price * 2 });
    // no order, and no order number taken
    expect(await counters(s.business.id)).toEqual(before);

    const placed = await checkout(
      p.db,
      s.business,
      { customer, items, deliveryMethod: "DELIVERY", address: "1 Main St", paymentMethod: "CASH" },
      { actor: "customer", expectedAmount: delivery.ok ? delivery.amount : -1 },
    );
    const [row] = await p.db.select().from(orders).where(eq(orders.id, placed.order.id));
    expect(row.amount).toBe(s.product.price * 2 + 300);
    expect(row.deliveryFee).toBe(300);
  });

  it("with a shipping hook and a discount hook of real servers: the quoted total is the charged amount, and both asked the same", async () => {
    const s = await shop();
    const receiver = await hookApp(
      s,
      (r) =>
        r.json?.hookPoint === "checkout.shipping_rates"
          ? json({ fee: r.json.data.deliveryMethod === "DELIVERY" ? 450 : 50 })
          : json({ discount: 100, reason: "Welcome" }),
      [
        { hookPoint: "checkout.shipping_rates", url: "/ship" },
        { hookPoint: "order.calculate_discounts", url: "/discounts" },
      ],
    );
    const items = [{ productId: s.product.id, quantity: 3 }];
    const subtotal = s.product.price * 3;
    const q = await quote(
      p.db,
      s.business,
      { items, deliveryMethod: "DELIVERY", address: "2 Side St" },
      { hooks: checkoutHooks(p.db, p.env) },
    );
    expect(q).toEqual({
      ok: true,
      subtotal,
      deliveryFee: 450,
      discount: 100,
      discountReason: "Welcome",
      amount: subtotal + 450 - 100,
      currency: "USD",
    });
    const asked = receiver.received.map((r) => ({ point: r.json.hookPoint, data: r.json.data }));
    expect(asked).toHaveLength(2);

    const pickup = await quote(
      p.db,
      s.business,
      { items, deliveryMethod: "PICKUP" },
      { hooks: checkoutHooks(p.db, p.env) },
    );
    expect(pickup).toMatchObject({ ok: true, deliveryFee: 50, discount: 100, amount: subtotal + 50 - 100 });

    const placed = await checkout(
      p.db,
      s.business,
      { customer, items, deliveryMethod: "DELIVERY", address: "2 Side St", paymentMethod: "CASH" },
      { hooks: checkoutHooks(p.db, p.env), actor: "customer", expectedAmount: q.ok ? q.amount : -1 },
    );
    const [row] = await p.db.select().from(orders).where(eq(orders.id, placed.order.id));
    expect({
      amount: row.amount,
      deliveryFee: row.deliveryFee,
      discount: row.discount,
      discountReason: row.discountReason,
    }).toEqual({ amount: subtotal + 350, deliveryFee: 450, discount: 100, discountReason: "Welcome" });
    // the order's hook calls carried exactly what the quote's did
    const orderCalls = receiver.received.slice(4).map((r) => ({ point: r.json.hookPoint, data: r.json.data }));
    const byPoint = (calls: typeof asked) => Object.fromEntries(calls.map((c) => [c.point, c.data]));
    expect(byPoint(orderCalls)).toEqual(byPoint(asked));
    // the quote's calls are in the developer's hook log like any other
    const [logged] = await p.db.execute<{ n: number }>(
      sql`select count(*)::int as n from hook_calls where business_id = ${s.business.id}`,
    );
    expect(logged.n).toBe(6);
  });

  it("refuses as the checkout would: a validator's reason (422), an unknown product (400), bad input (400); nothing is written", async () => {
    const s = await shop();
    const before = await counters(s.business.id);
    await hookApp(s, () => json({ valid: false, reason: "We do not deliver after 22:00" }), [
      { hookPoint: "order.validate", url: "/validate" },
    ]);
    const hooks = () => checkoutHooks(p.db, p.env);
    expect(
      await quote(
        p.db,
        s.business,
        { items: [{ productId: s.product.id, quantity: 1 }], deliveryMethod: "DELIVERY" },
        { hooks: hooks() },
      ),
    ).toEqual({
      ok: false,
      status: 422,
      message: "We do not deliver after 22:00",
    });
    expect(
      await quote(
        p.db,
        s.business,
        { items: [{ productId: "prd_nope", quantity: 1 }], deliveryMethod: "PICKUP" },
        { hooks: hooks() },
      ),
    ).toEqual({ ok: false, status: 400, message: "Unknown product prd_nope" });
    const bad = await quote(p.db, s.business, { items: [], deliveryMethod: "BOAT" }, { hooks: hooks() });
    expect(bad.ok).toBe(false);
    expect(bad).toMatchObject({ status: 400, message: expect.stringContaining("deliveryMethod") });
    expect(await counters(s.business.id)).toEqual(before);
  });

  it("when a hook answers differently at placement, nothing is ordered and the new total is given", async () => {
    const s = await shop();
    let fee = 400;
    await hookApp(s, () => json({ fee }), [{ hookPoint: "checkout.shipping_rates", url: "/ship" }]);
    const items = [{ productId: s.product.id, quantity: 1 }];
    const input = { customer, items, deliveryMethod: "DELIVERY" as const, address: "3 High St", paymentMethod: "CASH" };
    const q = await quote(p.db, s.business, input, { hooks: checkoutHooks(p.db, p.env) });
    expect(q).toMatchObject({ ok: true, deliveryFee: 400 });
    const shown = q.ok ? q.amount : -1;
    fee = 650;
    const before = await counters(s.business.id);
    const refused = await checkout(p.db, s.business, input, {
      hooks: checkoutHooks(p.db, p.env),
      actor: "customer",
      expectedAmount: shown,
    }).catch((e) => e);
    expect(refused).toBeInstanceOf(TotalChangedError);
    expect(refused.status).toBe(409);
    expect(refused.quote).toMatchObject({ deliveryFee: 650, amount: shown + 250 });
    expect((await counters(s.business.id)).n).toBe(before.n);
    // confirmed at the new total, it is placed
    const placed = await checkout(p.db, s.business, input, {
      hooks: checkoutHooks(p.db, p.env),
      actor: "customer",
      expectedAmount: refused.quote.amount,
    });
    expect(placed.order.amount).toEqual({ amount: shown + 250, currency: "USD" });
  });
});

describe("the checkout page's total", () => {
  const totalOf = (html: string) => /data-testid="checkout-total">([^<]+)</.exec(html)?.[1] ?? null;
  const feeOf = (html: string) => /data-testid="checkout-fee">([^<]+)</.exec(html)?.[1] ?? null;
  const quotedOf = (html: string) => /name="quotedAmount" value="(\d*)"/.exec(html)?.[1] ?? null;

  it("shows the total with the fee and discount before the order, updates it for pickup without JavaScript, and charges what it showed", async () => {
    const s = await shop();
    let fee = 450;
    await hookApp(
      s,
      (r) =>
        r.json?.hookPoint === "checkout.shipping_rates"
          ? json({ fee: r.json.data.deliveryMethod === "DELIVERY" ? fee : 0 })
          : json({ discount: 100, reason: "Welcome" }),
      [
        { hookPoint: "checkout.shipping_rates", url: "/ship" },
        { hookPoint: "order.calculate_discounts", url: "/discounts" },
      ],
    );
    const slug = s.business.slug;
    const money = (minor: number) => `$${(minor / 100).toFixed(2)}`;
    const subtotal = s.product.price * 2;
    const shopper = new BrowserSession(p.url);
    await shopper.get(`/s/${slug}`);
    expect(
      (await shopper.post(`/s/${slug}/cart`, { intent: "add", productId: s.product.id, quantity: "2" })).status,
    ).toBe(302);

    const ordersBefore = (await counters(s.business.id)).n;
    const page = await shopper.get(`/s/${slug}/checkout`);
    expect(page.status).toBe(200);
    expect(feeOf(page.html)).toBe(money(450));
    expect(page.html).toContain("Welcome");
    expect(totalOf(page.html)).toBe(money(subtotal + 350));
    expect(page.html).toContain(`Place order · ${money(subtotal + 350)}`);
    expect(quotedOf(page.html)).toBe(String(subtotal + 350));

    // "Update total" after choosing pickup: the page again, with the pickup total and the address hidden
    const fields = shopperForm;
    const checkout = (more: Record<string, string>) => shopper.post(`/s/${slug}/checkout`, { ...fields, ...more });
    const pickup = await checkout({ deliveryMethod: "PICKUP", intent: "quote" });
    expect(pickup.status).toBe(200);
    expect(totalOf(pickup.html)).toBe(money(subtotal - 100));
    expect(pickup.html).toMatch(/class="sf-field sf-address-field" hidden=""/);
    // the fetcher's endpoint answers the same
    const fetched = await fetch(`${p.storefrontUrl}/s/${slug}/checkout/quote?deliveryMethod=PICKUP`, {
      headers: { Cookie: shopper.cookieHeader(new URL(p.storefrontUrl)) },
    });
    expect(fetched.headers.get("cache-control")).toBe("private, no-store");
    expect(await fetched.json()).toMatchObject({
      ok: true,
      deliveryMethod: "PICKUP",
      total: money(subtotal - 100),
      amount: subtotal - 100,
    });

    // placing with the delivery total shown earlier while the fee went up: refused, the new total shown, nothing ordered
    fee = 600;
    const changed = await checkout({
      deliveryMethod: "DELIVERY",
      address: "4 Low St",
      quotedAmount: String(subtotal + 350),
      intent: "place",
    });
    expect(changed.status).toBe(409);
    expect(changed.html).toContain("The total changed since it was shown");
    expect(totalOf(changed.html)).toBe(money(subtotal + 500));
    expect(quotedOf(changed.html)).toBe(String(subtotal + 500));
    expect((await counters(s.business.id)).n).toBe(ordersBefore);
    // without a total at all: shown first, not placed
    const unseen = await checkout({ deliveryMethod: "DELIVERY", address: "4 Low St", intent: "place" });
    expect(unseen.status).toBe(409);
    expect((await counters(s.business.id)).n).toBe(ordersBefore);

    // the address is still required for delivery, on the server
    const noAddress = await checkout({
      deliveryMethod: "DELIVERY",
      quotedAmount: String(subtotal + 500),
      intent: "place",
    });
    expect(noAddress.status).toBe(400);
    expect(noAddress.html).toContain("Enter the delivery address, or choose pickup.");

    // confirmed at the total it showed: placed, at exactly that amount
    const placed = await checkout({
      deliveryMethod: "DELIVERY",
      address: "4 Low St",
      quotedAmount: String(subtotal + 500),
      intent: "place",
    });
    expect(placed.status, placed.html.slice(0, 400)).toBe(302);
    const orderId = new URL(placed.location!, p.storefrontUrl).pathname.split("/").pop()!;
    const [row] = await p.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row.amount).toBe(subtotal + 500);
    const confirmation = await shopper.get(placed.location!);
    expect(confirmation.html).toContain(`data-testid="order-total">${money(subtotal + 500)}<`);
  });
});

describe("the checkout page's refusals", () => {
  const fields = { ...shopperForm, address: "9 Quay St", deliveryMethod: "DELIVERY", intent: "place" };
  const keyOf = (html: string) => /name="checkoutKey" value="([^"]*)"/.exec(html)?.[1] ?? null;

  async function shopperWithCart(s: Awaited<ReturnType<typeof shop>>) {
    const shopper = new BrowserSession(p.url);
    await shopper.get(`/s/${s.business.slug}`);
    const added = await shopper.post(`/s/${s.business.slug}/cart`, { intent: "add", productId: s.product.id });
    expect(added.status).toBe(302);
    return shopper;
  }

  it("a field mistake, a hook's refusal and a product sold out meanwhile: each shows why, keeps what was typed, gives a fresh key; nothing is ordered", async () => {
    const s = await shop();
    await hookApp(
      s,
      (r) => json(r.json?.data?.deliveryMethod === "PICKUP" ? { valid: false, reason: "No pickup this week" } : {}),
      [{ hookPoint: "order.validate", url: "/validate" }],
    );
    const slug = s.business.slug;
    const shopper = await shopperWithCart(s);
    const before = (await counters(s.business.id)).n;

    const noName = await shopper.post(`/s/${slug}/checkout`, { ...fields, name: "" });
    expect(noName.status).toBe(400);
    expect(noName.html).toContain("Please check your details: Enter your name.");
    expect(noName.html).toMatch(/aria-invalid="true" aria-describedby="co-name-error"/);
    expect(noName.html).toMatch(/<textarea[^>]*name="address"[^>]*>9 Quay St<\/textarea>/);
    expect(noName.html).toMatch(/data-testid="checkout-total">\$/);
    expect(keyOf(noName.html)).toMatch(/^sf-/);
    expect(keyOf(noName.html)).not.toBe(fields.checkoutKey);

    const refused = await shopper.post(`/s/${slug}/checkout`, { ...fields, deliveryMethod: "PICKUP" });
    expect(refused.status).toBe(422);
    expect(refused.html).toContain("No pickup this week");
    // the total for the method chosen is quoted again: it cannot be placed, and says why
    expect(refused.html).toMatch(
      /data-testid="checkout-refusal">This order cannot be placed as it is: (<!-- -->)?No pickup/,
    );
    expect(refused.html).toContain('value="Ada"');

    await p.db.execute(sql`update products set is_available = false where id = ${s.product.id}`);
    const soldOut = await shopper.post(`/s/${slug}/checkout`, fields);
    expect(soldOut.status).toBe(409);
    expect(soldOut.html).toContain(
      `${s.product.name} is no longer available (sold out while you were checking out). Remove it from your cart to order the rest.`,
    );
    expect(soldOut.html).toContain('value="Ada"');
    expect((await counters(s.business.id)).n).toBe(before);

    // and a form from another site is refused before anything is read
    const forged = await fetch(`${p.storefrontUrl}/s/${slug}/checkout`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://evil.example" },
      body: new URLSearchParams(fields),
    });
    expect(forged.status).toBe(403);
  });
});
