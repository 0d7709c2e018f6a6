import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { businesses, orders, type OrderStatus } from "../../../db/schema";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import {
  dailyOrders,
  escapeLike,
  formatMoney,
  orderStatusCounts,
  readPage,
  searchProducts,
} from "./admin-queries.server";
import { createProduct, productSchema } from "./products.server";
import { businessSettingsSchema, isValidTimeZone, updateBusinessSettings } from "../accounts/business-settings.server";

const p = await startPlatform();
const merchant = await p.register("MERCHANT");
const other = await p.register("MERCHANT");

const DAY = 24 * 3600 * 1000;
let orderNumber = 5000;

async function insertOrder(businessId: string, createdAt: Date, amount: number, status: OrderStatus = "DELIVERED") {
  await p.db.insert(orders).values({
    id: newId("ord"),
    businessId,
    orderNumber: String(orderNumber++),
    status,
    subtotal: amount,
    amount,
    currency: "USD",
    deliveryMethod: "PICKUP",
    paymentMethod: "CASH",
    customerName: "Test Customer",
    customerPhone: "+1 555 0000",
    createdAt,
    updatedAt: createdAt,
  });
}

describe("dailyOrders", () => {
  it("returns 30 zero-filled UTC days ending today, without cancelled orders in revenue", async () => {
    const t = now();
    const todayStart = Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate());
    const day = (offset: number) => new Date(todayStart - offset * DAY).toISOString().slice(0, 10);

    await insertOrder(merchant.businessId, new Date(todayStart + 60_000), 1250);
    await insertOrder(merchant.businessId, new Date(todayStart + 120_000), 750, "PENDING");
    await insertOrder(merchant.businessId, new Date(todayStart + 180_000), 9999, "CANCELLED");
    await insertOrder(merchant.businessId, new Date(todayStart - DAY + 23 * 3600 * 1000 + 59 * 60_000), 400); // yesterday 23:59 UTC
    await insertOrder(merchant.businessId, new Date(todayStart - 29 * DAY), 300); // first day of the window, 00:00 UTC
    await insertOrder(merchant.businessId, new Date(todayStart - 29 * DAY - 1), 100_000); // just before the window
    await insertOrder(other.businessId, new Date(todayStart + 60_000), 77_700); // another business

    const series = await dailyOrders(p.db, merchant.businessId);
    expect(series).toHaveLength(30);
    expect(series[0].date).toBe(day(29));
    expect(series[29].date).toBe(day(0));
    // consecutive days, oldest first, all YYYY-MM-DD
    for (let i = 0; i < 30; i++) expect(series[i].date).toBe(day(29 - i));
    expect(series.every((d) => /^\d{4}-\d{2}-\d{2}$/.test(d.date))).toBe(true);

    expect(series[29]).toEqual({ date: day(0), orders: 3, revenue: 1250 + 750 });
    expect(series[28]).toEqual({ date: day(1), orders: 1, revenue: 400 });
    expect(series[0]).toEqual({ date: day(29), orders: 1, revenue: 300 });
    const middle = series.slice(1, 28);
    expect(middle.every((d) => d.orders === 0 && d.revenue === 0)).toBe(true);
    expect(series.reduce((s, d) => s + d.revenue, 0)).toBe(1250 + 750 + 400 + 300);
  });

  it("is all zeros for a business without orders", async () => {
    const empty = await p.register("MERCHANT");
    const series = await dailyOrders(p.db, empty.businessId);
    expect(series).toHaveLength(30);
    expect(series.every((d) => d.orders === 0 && d.revenue === 0)).toBe(true);
  });
});

describe("orderStatusCounts", () => {
  it("counts the business's orders per status, every status present, and in all; another business's are not counted", async () => {
    const shop = await p.register("MERCHANT");
    const t = now();
    for (const status of ["PENDING", "PENDING", "CONFIRMED", "CANCELLED"] as const)
      await insertOrder(shop.businessId, t, 1000, status);
    await insertOrder(other.businessId, t, 1000, "PENDING");
    const counts = await orderStatusCounts(p.db, shop.businessId);
    expect(counts.all).toBe(4);
    expect(counts.byStatus).toMatchObject({ PENDING: 2, CONFIRMED: 1, CANCELLED: 1, DELIVERED: 0 });
    expect(Object.values(counts.byStatus).reduce((a, b) => a + b, 0)).toBe(4);
  });
});

describe("searchProducts", () => {
  it("matches names case-insensitively, treats LIKE wildcards literally and stays in the business", async () => {
    await createProduct(p.db, merchant.businessId, productSchema.parse({ name: "Half 50% Off Pie", price: 500 }));
    await createProduct(p.db, merchant.businessId, productSchema.parse({ name: "Apple_Pie", price: 500 }));
    await createProduct(p.db, merchant.businessId, productSchema.parse({ name: "Apple Crumble", price: 500 }));
    await createProduct(p.db, other.businessId, productSchema.parse({ name: "Apple Tart", price: 500 }));

    const names = async (q: string) =>
      (await searchProducts(p.db, merchant.businessId, { q, page: 1 })).rows.map((r) => r.name).sort();
    expect(await names("apple")).toEqual(["Apple Crumble", "Apple_Pie"]);
    expect(await names("apple_")).toEqual(["Apple_Pie"]);
    expect(await names("50%")).toEqual(["Half 50% Off Pie"]);
    expect(await names("%")).toEqual(["Half 50% Off Pie"]);
    expect(await names("tart")).toEqual([]);
    expect(escapeLike("a\\b%c_d")).toBe("a\\\\b\\%c\\_d");
  });

  it("pages 20 at a time, newest first", async () => {
    const shop = await p.register("MERCHANT");
    for (let i = 0; i < 23; i++)
      await createProduct(p.db, shop.businessId, productSchema.parse({ name: `Item ${i}`, price: 100 + i }));
    const first = await searchProducts(p.db, shop.businessId, { page: 1 });
    const second = await searchProducts(p.db, shop.businessId, { page: 2 });
    expect(first.total).toBe(23);
    expect(first.rows).toHaveLength(20);
    expect(second.rows).toHaveLength(3);
    expect(second.rows.at(-1)?.name).toBe("Item 0");
  });

  it("reads ?page= leniently and formats money", () => {
    expect(readPage(new URL("http://x/?page=3"))).toBe(3);
    expect(readPage(new URL("http://x/?page=0"))).toBe(1);
    expect(readPage(new URL("http://x/?page=-2"))).toBe(1);
    expect(readPage(new URL("http://x/?page=abc"))).toBe(1);
    expect(readPage(new URL("http://x/"))).toBe(1);
    expect(formatMoney(1250, "USD", "en-US")).toBe("$12.50");
    expect(formatMoney(725, "USD", "not a locale!")).toBe("$7.25");
  });
});

describe("updateBusinessSettings", () => {
  const valid = {
    name: "Corner Café",
    address: "1 Main St",
    phone: "+1 555 0100",
    email: "Hello@Corner.example",
    currency: "eur",
    locale: "fr-FR",
    timezone: "Europe/Paris",
  };

  it("saves valid settings (currency upper-cased) and bumps updatedAt", async () => {
    const [before] = await p.db.select().from(businesses).where(eq(businesses.id, merchant.businessId));
    const row = await updateBusinessSettings(p.db, merchant.businessId, valid);
    expect(row).toMatchObject({
      name: "Corner Café",
      phone: "+1 555 0100",
      email: "hello@corner.example",
      currency: "EUR",
      locale: "fr-FR",
      timezone: "Europe/Paris",
    });
    expect(row.updatedAt.getTime()).toBeGreaterThanOrEqual(before.updatedAt.getTime());
    const utc = await updateBusinessSettings(p.db, merchant.businessId, { ...valid, timezone: "UTC", locale: "en-us" });
    expect(utc).toMatchObject({ timezone: "UTC", locale: "en-US" });
  });

  it("rejects a bad currency, time zone, locale or e-mail with a 400 naming the field", async () => {
    // each change, and the field the 400 names (none where only the status is checked)
    const cases: [Record<string, string>, string?][] = [
      [{ currency: "DOLLARS" }, "currency"],
      [{ currency: "US" }],
      [{ currency: "XQQ" }, "currency"],
      [{ timezone: "Mars/Olympus_Mons" }, "timezone"],
      [{ timezone: "" }],
      [{ locale: "english please" }, "locale"],
      [{ email: "not-an-email" }, "email"],
      [{ name: "  " }, "name"],
    ];
    for (const [change, field] of cases)
      await expect(
        updateBusinessSettings(p.db, merchant.businessId, { ...valid, ...change }),
        JSON.stringify(change),
      ).rejects.toMatchObject(field ? { status: 400, message: expect.stringContaining(field) } : { status: 400 });
    // nothing was saved by the failed attempts
    const [row] = await p.db.select().from(businesses).where(eq(businesses.id, merchant.businessId));
    expect(row.currency).toBe("EUR");
  });

  it("answers 404 for an unknown business", async () => {
    await expect(updateBusinessSettings(p.db, "biz_missing", valid)).rejects.toMatchObject({ status: 404 });
  });

  it("validates time zones with Intl", () => {
    expect(isValidTimeZone("America/New_York")).toBe(true);
    expect(isValidTimeZone("UTC")).toBe(true);
    expect(isValidTimeZone("Nowhere/Special")).toBe(false);
    expect(businessSettingsSchema.safeParse({ ...valid, currency: "usd" }).data?.currency).toBe("USD");
  });
});
