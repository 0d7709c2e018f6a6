import { describe, expect, it } from "vitest";
import { and, asc, eq, inArray } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { BrowserSession } from "../testing/browser";
import { businesses, orders, orderStatusChanges, platformEvents, type OrderStatus } from "../../../db/schema";
import { newId } from "../core/ids.server";
import { fulfilOrder, fulfilPath, moveOrderStatus } from "./status.server";
import { bulkMoveOrders } from "./bulk-moves.server";

const p = await startPlatform();

let counter = 5000;
async function order(businessId: string, extra: Partial<typeof orders.$inferInsert> = {}) {
  const id = newId("ord");
  const at = extra.createdAt ?? new Date("2026-11-27T15:30:00Z");
  await p.db.insert(orders).values({
    id,
    businessId,
    orderNumber: String(counter++),
    status: "PENDING",
    subtotal: 650,
    amount: 650,
    currency: "EUR",
    deliveryMethod: "PICKUP",
    paymentMethod: "CASH",
    customerName: "Freja Jensen",
    customerPhone: "+45 12 34 56 78",
    updatedAt: at,
    ...extra,
    createdAt: at,
  });
  return id;
}

const history = async (orderId: string) =>
  (
    await p.db
      .select()
      .from(orderStatusChanges)
      .where(eq(orderStatusChanges.orderId, orderId))
      .orderBy(asc(orderStatusChanges.createdAt))
  ).map((h) => `${h.fromStatus}>${h.toStatus}`);

const eventsOf = async (businessId: string, orderId: string) =>
  (
    await p.db
      .select()
      .from(platformEvents)
      .where(
        and(
          eq(platformEvents.businessId, businessId),
          inArray(platformEvents.type, ["order.status_changed", "order.delivered", "order.cancelled"]),
        ),
      )
  )
    .filter((e) => e.data.orderId === orderId)
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))
    .map((e) =>
      e.type === "order.status_changed" ? `${e.type}:${e.data.previousStatus}>${e.data.status}` : String(e.type),
    );

describe("mark as fulfilled", () => {
  it("is the contract's moves from any open status, never IN_DELIVERY for a pickup order", () => {
    expect(fulfilPath("PENDING", "PICKUP")).toEqual(["CONFIRMED", "PREPARING", "READY", "DELIVERED"]);
    expect(fulfilPath("PENDING", "DELIVERY")).toEqual(["CONFIRMED", "PREPARING", "READY", "IN_DELIVERY", "DELIVERED"]);
    expect(fulfilPath("READY", "PICKUP")).toEqual(["DELIVERED"]);
    expect(fulfilPath("IN_DELIVERY", "DELIVERY")).toEqual(["DELIVERED"]);
    expect(fulfilPath("DELIVERED", "PICKUP")).toEqual([]);
    expect(fulfilPath("CANCELLED", "DELIVERY")).toEqual([]);
    for (const s of ["PENDING", "CONFIRMED", "PREPARING", "READY"] as OrderStatus[])
      expect(fulfilPath(s, "PICKUP")).not.toContain("IN_DELIVERY");
  });

  it("moves a pending pickup order to picked up in one step: a history row and order.status_changed per move, order.delivered at the end", async () => {
    const shop = await p.register("MERCHANT");
    const id = await order(shop.businessId);
    const after = await fulfilOrder(p.db, shop.businessId, id, "merchant");
    expect(after.status).toBe("DELIVERED");
    expect(await history(id)).toEqual([
      "PENDING>CONFIRMED",
      "CONFIRMED>PREPARING",
      "PREPARING>READY",
      "READY>DELIVERED",
    ]);
    expect(await eventsOf(shop.businessId, id)).toEqual([
      "order.status_changed:PENDING>CONFIRMED",
      "order.status_changed:CONFIRMED>PREPARING",
      "order.status_changed:PREPARING>READY",
      "order.status_changed:READY>DELIVERED",
      "order.delivered",
    ]);
  });

  it("takes a delivery order through IN_DELIVERY, from where it is", async () => {
    const shop = await p.register("MERCHANT");
    const id = await order(shop.businessId, { status: "PREPARING", deliveryMethod: "DELIVERY", address: "Vej 1" });
    await fulfilOrder(p.db, shop.businessId, id, "merchant");
    expect(await history(id)).toEqual(["PREPARING>READY", "READY>IN_DELIVERY", "IN_DELIVERY>DELIVERED"]);
    expect(await eventsOf(shop.businessId, id)).toEqual([
      "order.status_changed:PREPARING>READY",
      "order.status_changed:READY>IN_DELIVERY",
      "order.status_changed:IN_DELIVERY>DELIVERED",
      "order.delivered",
    ]);
  });

  it("refuses a closed order (409) and another business's order (404), changing nothing", async () => {
    const shop = await p.register("MERCHANT");
    const other = await p.register("MERCHANT");
    const cancelled = await order(shop.businessId, { status: "CANCELLED" });
    await expect(fulfilOrder(p.db, shop.businessId, cancelled, "merchant")).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/is already cancelled$/),
    });
    const theirs = await order(other.businessId);
    await expect(fulfilOrder(p.db, shop.businessId, theirs, "merchant")).rejects.toMatchObject({ status: 404 });
    expect(await history(cancelled)).toEqual([]);
    expect(await history(theirs)).toEqual([]);
    expect(await eventsOf(other.businessId, theirs)).toEqual([]);
  });

  it("the admin never moves a pickup order to IN_DELIVERY (the App API keeps the contract's moves)", async () => {
    const shop = await p.register("MERCHANT");
    const ready = await order(shop.businessId, { status: "READY" });
    await expect(
      moveOrderStatus(p.db, shop.businessId, ready, "IN_DELIVERY", "merchant", { merchant: true }),
    ).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/mark it as picked up/) });
    const [bulk] = await bulkMoveOrders(p.db, shop.businessId, [ready], "IN_DELIVERY");
    expect(bulk).toMatchObject({ ok: false, message: expect.stringMatching(/pickup order/) });
    expect(await history(ready)).toEqual([]);
    // bulk FULFILLED: each order through its own path
    const delivery = await order(shop.businessId, {
      status: "CONFIRMED",
      deliveryMethod: "DELIVERY",
      address: "Vej 2",
    });
    const results = await bulkMoveOrders(p.db, shop.businessId, [ready, delivery], "FULFILLED");
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    expect(await history(ready)).toEqual(["READY>DELIVERED"]);
    expect(await history(delivery)).toEqual([
      "CONFIRMED>PREPARING",
      "PREPARING>READY",
      "READY>IN_DELIVERY",
      "IN_DELIVERY>DELIVERED",
    ]);
  });
});

describe("the admin's order pages", () => {
  it("the order page fulfils in one click and shows its times in the shop's zone, in words", async () => {
    const shop = await p.register("MERCHANT");
    await p.db
      .update(businesses)
      .set({ timezone: "Asia/Tokyo", locale: "en-US", currency: "JPY" })
      .where(eq(businesses.id, shop.businessId));
    // 15:30 UTC is 00:30 the next day in Tokyo
    const id = await order(shop.businessId, {
      currency: "JPY",
      amount: 1500,
      subtotal: 1500,
      paymentMethod: "reference-app:refpay",
      paymentMethodName: "RefPay QR",
    });
    const browser = await BrowserSession.signIn(p.url, shop.email, shop.password);
    const page = await browser.get(`/admin/orders/${id}`);
    const html = page.html.replace(/<!-- -->/g, "");
    expect(html).toContain("Nov 28, 2026, 12:30 AM GMT+9");
    expect(html).toContain("(Asia/Tokyo)");
    expect(html).toContain("Mark as picked up");
    expect(html).toContain("RefPay QR");
    expect(html).not.toContain("reference-app:refpay");
    expect(html).not.toContain("IN_DELIVERY");
    expect(html).toContain("¥1,500");
    const done = await browser.post(`/admin/orders/${id}`, { intent: "fulfil" });
    expect(done.status).toBe(302);
    expect(done.location).toBe(`/admin/orders/${id}?saved=DELIVERED`);
    const after = (await browser.get(done.location!)).html.replace(/<!-- -->/g, "");
    expect(after).toContain("The order is now picked up.");
    expect(after).toContain("Ready for pickup → Picked up");
    expect(await history(id)).toHaveLength(4);
    // a second click on a stale page: a clear refusal, not a 500
    const again = await browser.post(`/admin/orders/${id}`, { intent: "fulfil" });
    expect(again.status).toBe(409);
    expect(again.html).toContain("is already picked up");
  });

  it("bulk cancel asks first, naming how many orders, and moves nothing until confirmed", async () => {
    const shop = await p.register("MERCHANT");
    const ids = [];
    for (let i = 0; i < 20; i++) ids.push(await order(shop.businessId));
    const browser = await BrowserSession.signIn(p.url, shop.email, shop.password);
    await browser.get("/admin/orders");
    const asked = await browser.post("/admin/orders?index", {
      intent: "bulk-move",
      status: "CANCELLED",
      orderIds: ids,
    });
    expect(asked.status).toBe(200);
    const html = asked.html.replace(/<!-- -->/g, "");
    expect(html).toContain("Cancel 20 orders?");
    expect(html).toContain("This cannot be undone");
    expect((html.match(/name="orderIds" type="hidden"|type="hidden" name="orderIds"/g) ?? []).length).toBe(20);
    const still = await p.db.select({ s: orders.status }).from(orders).where(inArray(orders.id, ids));
    expect(still.every((r) => r.s === "PENDING")).toBe(true);
    // a move that can be undone is not asked
    const confirm = await browser.post("/admin/orders?index", {
      intent: "bulk-move",
      status: "CONFIRMED",
      orderIds: [ids[0]],
    });
    expect(confirm.html.replace(/<!-- -->/g, "")).toContain("1 order moved to confirmed");
    const done = await browser.post("/admin/orders?index", {
      intent: "bulk-move",
      status: "CANCELLED",
      confirmed: "yes",
      orderIds: ids,
    });
    expect(done.html.replace(/<!-- -->/g, "")).toContain("20 orders moved to cancelled");
    const now = await p.db.select({ s: orders.status }).from(orders).where(inArray(orders.id, ids));
    expect(now.every((r) => r.s === "CANCELLED")).toBe(true);
  });

  it("the dashboard counts today and its days in the shop's zone, and says which", async () => {
    const shop = await p.register("MERCHANT");
    await p.db.update(businesses).set({ timezone: "Asia/Tokyo" }).where(eq(businesses.id, shop.businessId));
    // just after midnight in Tokyo today: yesterday in UTC for the first nine hours of Tokyo's day
    const tokyoToday = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Tokyo" }).format(new Date());
    await order(shop.businessId, { createdAt: new Date(`${tokyoToday}T00:05:00+09:00`), status: "CONFIRMED" });
    const browser = await BrowserSession.signIn(p.url, shop.email, shop.password);
    const html = (await browser.get("/admin")).html.replace(/<!-- -->/g, "");
    expect(html).toContain("(Asia/Tokyo)");
    expect(html).toContain("Days in Asia/Tokyo");
    expect(html).toMatch(/Orders today<\/[a-z]+>\s*<[^>]+>1</);
  });
});
