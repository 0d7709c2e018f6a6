/**
 * Read queries of the merchant admin pages, every one scoped to a business. Money stays in minor
 * units (cents) here; the pages format it with the business currency.
 */
import { and, asc, eq, ilike, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { orderItems, orderStatusChanges, products, reviews } from "../../../db/schema";
import { now } from "../core/clock.server";
import { getOrderRow, localDays, orderStatusCounts as statusCounters } from "./queries.server";
import { newestFirst, pageWithTotal } from "../core/paging.server";
import { ADMIN_PAGE_SIZE, escapeLike } from "./admin-paging.server";

export { ADMIN_PAGE_SIZE, escapeLike, pageCount, readPage } from "./admin-paging.server";
// the orders list (search, filters, sorts, pages by keyset, the CSV export): orders-list.server.ts
export {
  ORDER_MATCH_CAP,
  ORDER_SORTS,
  ORDER_SORT_LABELS,
  MIN_TEXT_SEARCH,
  isFiltered,
  orderFilterQuery,
  ordersForExport,
  parseOrderFilter,
  searchOrderStatements,
  searchOrders,
  type OrderExportRow,
  type OrderFilter,
  type OrderListRow,
  type OrderSort,
} from "./orders-list.server";
const DAY_MS = 24 * 3600 * 1000;

/** Amount in minor units as "$12.50", "¥1,500", "KWD 1.234" (core/money.ts). */
export { formatMoney } from "../core/money";

/** Products of the business, newest first, optionally whose name contains q (case-insensitive). */
export async function searchProducts(
  db: Db,
  businessId: string,
  options: { q?: string; page: number; pageSize?: number },
) {
  const size = options.pageSize ?? ADMIN_PAGE_SIZE;
  const q = options.q?.trim();
  const where = q
    ? and(eq(products.businessId, businessId), ilike(products.name, `%${escapeLike(q)}%`))
    : eq(products.businessId, businessId);
  const newest = db.select().from(products);
  return pageWithTotal(
    db,
    newest,
    { from: products, where, order: newestFirst(products) },
    { limit: size, offset: (options.page - 1) * size },
  );
}

/** Number of orders per status (every status present, 0 when none) and in all. */
export async function orderStatusCounts(db: Db, businessId: string) {
  // the counters kept by the orders' triggers (decision 068), not a count of the orders per view
  const byStatus = await statusCounters(db, businessId);
  return { byStatus, all: Object.values(byStatus).reduce((sum, n) => sum + n, 0) };
}

/** One order of the business with its lines and its status history (oldest first); 404 when not its. */
export async function getOrderDetail(db: Db, businessId: string, orderId: string) {
  const order = await getOrderRow(db, businessId, orderId);
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
  const newest = db
    .select({
      id: reviews.id,
      rating: reviews.rating,
      comment: reviews.comment,
      authorName: reviews.authorName,
      createdAt: reviews.createdAt,
      replyBody: reviews.replyBody,
      replyCreatedAt: reviews.replyCreatedAt,
      productId: reviews.productId,
      productName: products.name,
    })
    .from(reviews)
    .innerJoin(products, and(eq(products.id, reviews.productId), eq(products.businessId, businessId)));
  return pageWithTotal(
    db,
    newest,
    { from: reviews, where, order: newestFirst(reviews) },
    { limit: size, offset: (options.page - 1) * size },
  );
}

export type DailyOrders = { date: string; orders: number; revenue: number };

/**
 * Orders and revenue (minor units) per day of `timeZone` (the shop's) over the last `days` days, oldest first and ending
 * today, every day present (0 when no order). Every order counts as an order; cancelled orders do
 * not count as revenue.
 */
export async function dailyOrders(db: Db, businessId: string, days = 30, timeZone = "UTC"): Promise<DailyOrders[]> {
  // days of the shop's time zone: an order at 23:30 in Tokyo counts on Tokyo's day
  const local = localDays(now(), timeZone, days);
  // whole UTC days come from the daily rollups kept by the orders' triggers (decision 068); a shop in
  // another zone groups its own orders of those days by its local day (bounded by the window's index range)
  const rows =
    local.timeZone === "UTC"
      ? await db.execute<{ day: string; orders: number; revenue: number }>(sql`
    select to_char(day, 'YYYY-MM-DD') as day, sum(orders)::int as orders, sum(revenue)::int as revenue
    from order_daily_stats
    where business_id = ${businessId}
      and day >= ${local.first}::date
      and day <= ${local.today}::date
    group by day`)
      : await db.execute<{ day: string; orders: number; revenue: number }>(sql`
    select to_char(created_at at time zone ${local.timeZone}, 'YYYY-MM-DD') as day,
           count(*)::int as orders,
           coalesce(sum(amount) filter (where status <> 'CANCELLED'), 0)::int as revenue
    from orders
    where business_id = ${businessId}
      and created_at >= ${local.since.toISOString()}::timestamptz
      and created_at < ${local.until.toISOString()}::timestamptz
    group by 1`);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return Array.from({ length: days }, (_, i) => {
    const date = new Date(Date.parse(`${local.first}T00:00:00Z`) + i * DAY_MS).toISOString().slice(0, 10);
    const row = byDay.get(date);
    return { date, orders: row?.orders ?? 0, revenue: row?.revenue ?? 0 };
  });
}
