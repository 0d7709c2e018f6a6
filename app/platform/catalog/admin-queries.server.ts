/**
 * Read queries of the merchant admin pages, every one scoped to a business. Money stays in minor
 * units (cents) here; the pages format it with the business currency.
 */
import { and, asc, count, desc, eq, ilike, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { orderItems, orders, orderStatusChanges, products, reviews, ORDER_STATUSES, type OrderStatus } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { now } from "../core/clock.server";

export const ADMIN_PAGE_SIZE = 20;
const MAX_PAGE = 10_000;
const DAY_MS = 24 * 3600 * 1000;

/** ?page= as a positive integer; anything else is page 1 (pages never fail on a bad link). */
export function readPage(url: URL): number {
  const raw = url.searchParams.get("page");
  if (!raw || !/^\d{1,6}$/.test(raw)) return 1;
  const n = Number(raw);
  return n >= 1 ? Math.min(n, MAX_PAGE) : 1;
}

export const pageCount = (total: number, size = ADMIN_PAGE_SIZE) => Math.max(1, Math.ceil(total / size));

/** Escapes LIKE wildcards so that a search for "50%" or "a_b" matches those characters literally. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Amount in minor units as "$12.50" in the currency; a bad currency or locale falls back safely. */
export function formatMoney(minor: number, currency: string, locale = "en-US"): string {
  const major = Math.round(minor) / 100;
  for (const loc of [locale, "en-US"]) {
    try {
      return new Intl.NumberFormat(loc, { style: "currency", currency }).format(major);
    } catch {
      // try the next locale, then plain digits
    }
  }
  return `${major.toFixed(2)} ${currency}`;
}

/** Products of the business, newest first, optionally whose name contains q (case-insensitive). */
export async function searchProducts(db: Db, businessId: string, options: { q?: string; page: number; pageSize?: number }) {
  const size = options.pageSize ?? ADMIN_PAGE_SIZE;
  const q = options.q?.trim();
  const where = q ? and(eq(products.businessId, businessId), ilike(products.name, `%${escapeLike(q)}%`)) : eq(products.businessId, businessId);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(products)
      .where(where)
      .orderBy(desc(products.createdAt), desc(products.id))
      .limit(size)
      .offset((options.page - 1) * size),
    db.select({ total: count() }).from(products).where(where),
  ]);
  return { rows, total };
}

/** Number of orders per status (every status present, 0 when none) and in all. */
export async function orderStatusCounts(db: Db, businessId: string) {
  const rows = await db.select({ status: orders.status, n: count() }).from(orders).where(eq(orders.businessId, businessId)).groupBy(orders.status);
  const byStatus = Object.fromEntries(ORDER_STATUSES.map((s) => [s, rows.find((r) => r.status === s)?.n ?? 0])) as Record<OrderStatus, number>;
  return { byStatus, all: rows.reduce((sum, r) => sum + r.n, 0) };
}

/** One order of the business with its lines and its status history (oldest first); 404 when not its. */
export async function getOrderDetail(db: Db, businessId: string, orderId: string) {
  const [order] = await db.select().from(orders).where(and(eq(orders.businessId, businessId), eq(orders.id, orderId)));
  if (!order) throw new ApiError(404, "Order not found");
  const [items, history] = await Promise.all([
    db.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(asc(orderItems.id)),
    db
      .select()
      .from(orderStatusChanges)
      .where(eq(orderStatusChanges.orderId, order.id))
      .orderBy(asc(orderStatusChanges.createdAt), asc(orderStatusChanges.id)),
  ]);
  return { order, items, history };
}

/** Reviews of the business with their product's name, newest first. */
export async function listReviewsWithProduct(db: Db, businessId: string, options: { page: number; pageSize?: number }) {
  const size = options.pageSize ?? ADMIN_PAGE_SIZE;
  const where = eq(reviews.businessId, businessId);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        id: reviews.id,
        rating: reviews.rating,
        comment: reviews.comment,
        authorName: reviews.authorName,
        createdAt: reviews.createdAt,
        productId: reviews.productId,
        productName: products.name,
      })
      .from(reviews)
      .innerJoin(products, and(eq(products.id, reviews.productId), eq(products.businessId, businessId)))
      .where(where)
      .orderBy(desc(reviews.createdAt), desc(reviews.id))
      .limit(size)
      .offset((options.page - 1) * size),
    db.select({ total: count() }).from(reviews).where(where),
  ]);
  return { rows, total };
}

export type DailyOrders = { date: string; orders: number; revenue: number };

const utcDate = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Orders and revenue (minor units) per UTC day over the last `days` days, oldest first and ending
 * today, every day present (0 when no order). Every order counts as an order; cancelled orders do
 * not count as revenue.
 */
export async function dailyOrders(db: Db, businessId: string, days = 30): Promise<DailyOrders[]> {
  const t = now();
  const todayStart = Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate());
  const since = new Date(todayStart - (days - 1) * DAY_MS);
  const until = new Date(todayStart + DAY_MS);
  const rows = await db.execute<{ day: string; orders: number; revenue: number }>(sql`
    select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day,
           count(*)::int as orders,
           coalesce(sum(amount) filter (where status <> 'CANCELLED'), 0)::int as revenue
    from orders
    where business_id = ${businessId}
      and created_at >= ${since.toISOString()}::timestamptz
      and created_at < ${until.toISOString()}::timestamptz
    group by 1`);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return Array.from({ length: days }, (_, i) => {
    const date = utcDate(new Date(since.getTime() + i * DAY_MS));
    const row = byDay.get(date);
    return { date, orders: row?.orders ?? 0, revenue: row?.revenue ?? 0 };
  });
}
