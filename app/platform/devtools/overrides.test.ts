/**
 * Trigger fixtures (contract 19): `overrides` set the made order's shopper, items and currency and
 * the made review's rating and body; the delivered payload carries them; bad overrides are refused
 * as the real input would be (400 naming the field) and nothing is triggered. Another developer's
 * app answers 404, and a past delivery is resent from the developer API.
 */
import { describe, expect, it } from "vitest";
import { startPlatform } from "../testing/platform";
import { eventually, startReceiver } from "../testing/receiver";
import { appBody } from "../apps/apps.test-helpers";
import { createProduct, productSchema } from "../catalog/products.server";

const p = await startPlatform({ worker: true });
const dev = await p.register("DEVELOPER");
const receiver = await startReceiver({ status: 200 });
const app = await p.request("POST", "/developer/apps", {
  token: dev.token,
  body: appBody({
    scopes: ["read_orders", "read_products", "read_reviews"],
    webhookUrl: receiver.url + "/webhooks",
    webhookEvents: ["order.created", "review.created"],
  }),
});
const appId = app.json.id as string;
const installed = await p.request("POST", `/developer/apps/${appId}/test-install`, { token: dev.token });
const sandbox = await p.request("GET", "/developer/sandbox", { token: dev.token });
const made = await createProduct(
  p.db,
  sandbox.json.businessId,
  productSchema.parse({ name: "Fixture lamp", price: 4500, category: "Lamps", stock: 50 }),
);
const product = { status: 201, json: made };

const trigger = (body: unknown, token = dev.token, id = appId) =>
  p.request("POST", `/developer/apps/${id}/trigger`, { token, body });
/** The payload received for a delivery (X-Service-Event-Id names the delivery, decision 035). */
const payloadOf = async (deliveryId: string) => {
  let found: { data: Record<string, any> } | undefined;
  await eventually(async () => {
    const hit = receiver.received.find((r) => r.headers["x-service-event-id"] === deliveryId);
    expect(hit).toBeDefined();
    found = hit!.json;
  });
  return found!;
};

describe("trigger overrides", () => {
  it("an order.created with the customer's e-mail, the items and the currency overridden carries them", async () => {
    expect(product.status).toBe(201);
    const res = await trigger({
      event: "order.created",
      overrides: {
        customer: { email: "fixture@example.test", name: "Ada Fixture" },
        items: [{ productId: product.json.id, quantity: 3 }],
        currency: "USD",
      },
    });
    expect(res.status).toBe(202);
    const payload = await payloadOf(res.json.deliveries[0].id);
    // the payload names the order and its money: three lamps and the delivery fee
    expect(payload.data.amount.amount).toBe(3 * 4500 + payload.data.deliveryFee.amount);
    // and the order the app reads for it has the overridden shopper and items
    const order = await p.request("GET", `/app-api/orders/${payload.data.orderId}`, {
      token: installed.json.accessToken,
    });
    expect(order.status).toBe(200);
    expect(JSON.stringify(order.json)).toContain("fixture@example.test");
    expect(JSON.stringify(order.json)).toContain("Ada Fixture");
    expect(JSON.stringify(order.json)).toContain(product.json.id);
  });

  it("a review.created with rating and body carries them", async () => {
    const res = await trigger({ event: "review.created", overrides: { rating: 2, body: "Arrived cold." } });
    expect(res.status).toBe(202);
    const text = JSON.stringify((await payloadOf(res.json.deliveries[0].id)).data);
    expect(text).toContain("Arrived cold.");
    expect(text).toMatch(/"rating":2/);
  });

  it("refuses bad overrides as real input, naming the field, and triggers nothing", async () => {
    const before = receiver.received.length;
    for (const [body, field] of [
      [{ event: "order.created", overrides: { customer: { email: "not-an-address" } } }, "overrides.customer.email"],
      [
        { event: "order.created", overrides: { items: [{ productId: product.json.id, quantity: 0 }] } },
        "overrides.items.0.quantity",
      ],
      [
        { event: "order.created", overrides: { items: [{ productId: "prd_elsewhere", quantity: 1 }] } },
        "overrides.items.0.productId",
      ],
      [{ event: "order.created", overrides: { items: [] } }, "overrides.items"],
      [{ event: "order.created", overrides: { currency: "EUR" } }, "overrides.currency"],
      [{ event: "order.created", overrides: { rating: 3 } }, "overrides.rating"],
      [{ event: "review.created", overrides: { rating: 6 } }, "overrides.rating"],
      [{ event: "review.created", overrides: { body: "x".repeat(2001) } }, "overrides.body"],
      [{ event: "product.created", overrides: { rating: 3 } }, "overrides.rating"],
      [{ event: "order.created", overrides: { shipping: "fast" } }, "overrides"],
    ] as const) {
      const res = await trigger(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.message, JSON.stringify(body)).toContain(field);
      expect(res.json.error).toBe("Bad Request");
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received.length).toBe(before);
  });

  it("another developer's app answers 404; a past delivery is resent with the same event id", async () => {
    const other = await p.register("DEVELOPER");
    expect((await trigger({ event: "order.created" }, other.token)).status).toBe(404);
    const res = await trigger({ event: "order.created" });
    const deliveryId = res.json.deliveries[0].id as string;
    await payloadOf(deliveryId);
    expect(
      (await p.request("POST", `/developer/apps/${appId}/deliveries/${deliveryId}/resend`, { token: other.token }))
        .status,
    ).toBe(404);
    const again = await p.request("POST", `/developer/apps/${appId}/deliveries/${deliveryId}/resend`, {
      token: dev.token,
    });
    expect(again.status).toBe(202);
    await eventually(async () =>
      expect(receiver.received.filter((r) => r.headers["x-service-event-id"] === deliveryId)).toHaveLength(2),
    );
  });
});
