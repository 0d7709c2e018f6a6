/**
 * Read queries of the catalogue, every one scoped to a business. Lists are newest first
 * (createdAt, then id), backed by the (business_id, created_at desc, id desc) indexes.
 */
import { and, asc, count, eq, getTableName, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import {
  businessCounts,
  orderItems,
  orders,
  pages,
  products,
  reviews,
  ORDER_STATUSES,
  type Order,
  type OrderStatus,
} from "../../../db/schema";
import { rawQuery, readColumns, selectColumns } from "../../../db/sql";
import { now } from "../core/clock.server";
import { dateFormatter } from "../core/dates";
import { serializeOrder } from "./serialize.server";
import { money } from "../core/money";
import { decodeCursor, encodeCursor, newestFirst, pageWithTotal, type Page, type Paged } from "../core/paging.server";
import { businessRow } from "../core/business-rows.server";
import { topProducts } from "./top-products.server";

/** The business's row count of a table, kept by triggers (business_counts: the sum of its shards). */
export async function countOf(
  db: Db,
  businessId: string,
  entity: "orders" | "products" | "reviews" | "pages",
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${businessCounts.n}), 0)::int` })
    .from(businessCounts)
    .where(and(eq(businessCounts.businessId, businessId), eq(businessCounts.entity, entity)));
  return row?.n ?? 0;
}

type Listed = typeof products | typeof reviews | typeof pages | typeof orders;

/** How many of a business's orders (or reviews) there are per value of `column` (a status, a rating); values with none are absent. */
export function countsBy<K extends typeof orders.status | typeof reviews.rating>(
  db: Db,
  table: typeof orders | typeof reviews,
  column: K,
  businessId: string,
) {
  return db.select({ value: column, n: count() }).from(table).where(eq(table.businessId, businessId)).groupBy(column);
}

const pageTexts = new Map<string, string>();
/** The page statement of a table, by OFFSET or after a keyset position ($5, $6). */
function pageSql(table: Listed, keyset: boolean): string {
  const name = getTableName(table);
  const key = `${name}:${keyset}`;
  let text = pageTexts.get(key);
  if (text === undefined)
    pageTexts.set(
      key,
      (text = `
    select ${selectColumns(table, "r")}, r.created_at::text as "cursor_at", (select sum(n) from business_counts where business_id = $1 and entity = $2) as "total"
    from "${name}" r where r.business_id = $1${keyset ? " and (r.created_at, r.id) < ($5::timestamptz, $6)" : ""}
    order by r.created_at desc, r.id desc limit $3 offset $4`),
    );
  return text;
}

/**
 * A page of a business's rows, newest first (createdAt, then id), and the business's total kept by
 * triggers, in one statement; the total is read on its own only when the page is empty. By OFFSET
 * for `page=N`; after a cursor (the App API, decision 067), by keyset on the (business_id,
 * created_at desc, id desc) index, at the same cost at any depth, with one row more read to know
 * whether a next page exists. The total stays exact on every page: it is the trigger-kept count.
 */
async function pageOf<T extends Listed>(
  db: Db,
  table: T,
  entity: "orders" | "products" | "reviews" | "pages",
  businessId: string,
  page: Page,
): Promise<Paged<T["$inferSelect"]>> {
  const identity = { list: entity, scope: businessId };
  const position = page.cursor?.after ? decodeCursor(page.cursor.key, identity, page.cursor.after) : undefined;
  const more = page.cursor ? 1 : 0;
  // hand-written, its text made once per table, and read back with the columns' own mappings: the
  // App API's hottest read (B1)
  const params: unknown[] = [businessId, entity, page.limit + more, position ? 0 : page.offset];
  if (position) params.push(position.at, position.id);
  const result = await rawQuery<Record<string, unknown>>(db, pageSql(table, Boolean(position)), params);
  const total = result.length ? Number(result[0].total ?? 0) : await countOf(db, businessId, entity);
  const thisPage = position ? position.page : Math.floor(page.offset / page.limit) + 1;
  const rows = result.slice(0, page.limit);
  const last = rows[rows.length - 1];
  const nextCursor =
    page.cursor && result.length > page.limit
      ? encodeCursor(page.cursor.key, identity, {
          at: String(last.cursor_at),
          id: String(last["r.id"]),
          page: thisPage + 1,
        })
      : null;
  return {
    rows: rows.map((row) => readColumns(table, "r", row)) as T["$inferSelect"][],
    total,
    nextCursor,
    page: thisPage,
  };
}

export function listProducts(db: Db, businessId: string, page: Page) {
  return pageOf(db, products, "products", businessId, page);
}

export function getProduct(db: Db, businessId: string, id: string) {
  return businessRow(db, products, businessId, eq(products.id, id), "Product not found");
}

export function getProductBySlug(db: Db, businessId: string, slug: string) {
  return businessRow(db, products, businessId, eq(products.slug, slug), "Product not found");
}

/** Orders with their items, serialized. */
export async function withItems(db: Db, rows: Order[]) {
  if (rows.length === 0) return [];
  const items = await db
    .select()
    .from(orderItems)
    .where(
      inArray(
        orderItems.orderId,
        rows.map((o) => o.id),
      ),
    )
    .orderBy(asc(orderItems.id));
  return rows.map((o) =>
    serializeOrder(
      o,
      items.filter((i) => i.orderId === o.id),
    ),
  );
}

export async function listOrders(db: Db, businessId: string, page: Page, filter: { status?: string } = {}) {
  if (!filter.status) {
    const { rows, ...rest } = await pageOf(db, orders, "orders", businessId, page);
    return { data: await withItems(db, rows), ...rest };
  }
  const where = and(eq(orders.businessId, businessId), eq(orders.status, filter.status as Order["status"]));
  const newest = db.select().from(orders);
  const { rows, total } = await pageWithTotal(db, newest, { from: orders, where, order: newestFirst(orders) }, page);
  return { data: await withItems(db, rows), total, nextCursor: null };
}

export function getOrderRow(db: Db, businessId: string, id: string): Promise<Order> {
  return businessRow(db, orders, businessId, eq(orders.id, id), "Order not found");
}

export async function getOrder(db: Db, businessId: string, id: string) {
  const [order] = await withItems(db, [await getOrderRow(db, businessId, id)]);
  return order;
}

export function listReviews(db: Db, businessId: string, page: Page) {
  return pageOf(db, reviews, "reviews", businessId, page);
}

export async function reviewStats(db: Db, businessId: string) {
  const rows = await countsBy(db, reviews, reviews.rating, businessId);
  const distribution: Record<"1" | "2" | "3" | "4" | "5", number> = { "1": 0, "2": 0, "3": 0, "4": 0, "5": 0 };
  let total = 0;
  let sum = 0;
  for (const r of rows) {
    distribution[String(r.value) as keyof typeof distribution] = r.n;
    total += r.n;
    sum += r.value * r.n;
  }
  return { averageRating: total ? Math.round((sum / total) * 100) / 100 : 0, totalReviews: total, distribution };
}

export function listPages(db: Db, businessId: string, page: Page) {
  return pageOf(db, pages, "pages", businessId, page);
}

export function getPage(db: Db, businessId: string, slug: string) {
  return businessRow(db, pages, businessId, eq(pages.slug, slug), "Page not found");
}

/**
 * Dashboard figures (UTC days): orders and revenue today and over the last 30 days, average
 * order value over 30 days, orders by status, top 5 products by quantity over 30 days. Cancelled
 * orders do not count as revenue. Read from the rollups kept by triggers in the orders'
 * transactions (decision 068), never from the orders themselves: the same figures at any size.
 */
export async function dashboard(db: Db, businessId: string, currency: string, timeZone = "UTC") {
  // "today" and the 30 days are days of `timeZone` (the admin passes the shop's; the App API's answer is in UTC days);
  // the figures are exact from any instant (the rollups' whole UTC days and the orders of the edges)
  const { todayStart, since } = localDays(now(), timeZone, 30);
  const [today, month, byStatus, top] = await Promise.all([
    orderFigures(db, businessId, todayStart),
    orderFigures(db, businessId, since),
    orderStatusCounts(db, businessId),
    topProducts(db, businessId, since, 5),
  ]);
  return {
    today: { orders: today.orders, revenue: money(today.revenue, currency) },
    last30Days: { orders: month.orders, revenue: money(month.revenue, currency) },
    averageOrderValue: money(month.paidOrders ? Math.round(month.revenue / month.paidOrders) : 0, currency),
    ordersByStatus: byStatus as Record<string, number>,
    topProducts: top.map((r) => ({
      productId: r.productId,
      name: r.name,
      quantity: r.quantity,
      revenue: money(r.revenue, currency),
    })),
  };
}

/**
 * The start of the local day of `t` in `timeZone` and of the day `days - 1` days before it, as
 * instants, with the local dates: midnight in the zone, whatever its offset that day (DST included).
 */
export function localDays(t: Date, timeZone: string, days: number) {
  const dates = dateFormatter("en-US", timeZone);
  const today = dates.localDay(t);
  const first = new Date(Date.parse(`${today}T00:00:00Z`) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  return {
    timeZone: dates.timeZone,
    today,
    first,
    todayStart: localMidnight(today, dates.timeZone),
    since: localMidnight(first, dates.timeZone),
    until: localMidnight(
      new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10),
      dates.timeZone,
    ),
  };
}

/** The instant of midnight of a calendar day ("2026-03-29") in a time zone. */
export function localMidnight(ymd: string, timeZone: string): Date {
  const dates = dateFormatter("en-US", timeZone);
  // guess with the offset at UTC midnight, then correct by the offset at the guess (twice covers DST edges)
  let guess = Date.parse(`${ymd}T00:00:00Z`);
  for (let i = 0; i < 2; i++) {
    const off = offsetMs(dates.iso(guess));
    guess = Date.parse(`${ymd}T00:00:00Z`) - off;
  }
  return new Date(guess);
}

const offsetMs = (iso: string) => {
  const m = /([+-])(\d{2}):(\d{2})$/.exec(iso);
  return m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
};

/** The business's orders per status, from the counters the orders' triggers keep (business_counts 'orders:<STATUS>'). */
export async function orderStatusCounts(db: Db, businessId: string): Promise<Record<OrderStatus, number>> {
  const rows = await db.execute<{ entity: string; n: string }>(sql`
    select entity, sum(n)::bigint as n from business_counts
    where business_id = ${businessId} and entity like 'orders:%' group by entity`);
  return Object.fromEntries(
    ORDER_STATUSES.map((s) => [s, Number(rows.find((r) => r.entity === `orders:${s}`)?.n ?? 0)]),
  ) as Record<OrderStatus, number>;
}

const DAY = 24 * 3600 * 1000;
/** The first UTC midnight at or after `t`: whole UTC days from there on are read from the rollups. */
const nextUtcMidnight = (t: Date) => new Date(Math.ceil(t.getTime() / DAY) * DAY);

/**
 * Orders, orders not cancelled and their revenue (minor units) created at or after `from`: whole UTC
 * days from the daily rollups, and the part of a day before the first UTC midnight (none when `from`
 * is one) from the orders themselves, so that the figure is exact from any instant.
 */
export async function orderFigures(db: Db, businessId: string, from: Date) {
  const edge = nextUtcMidnight(from);
  const [row] = await db.execute<{ orders: string; paid_orders: string; revenue: string }>(sql`
    select coalesce(sum(orders), 0)::bigint as orders, coalesce(sum(paid_orders), 0)::bigint as paid_orders, coalesce(sum(revenue), 0)::bigint as revenue
    from (
      select orders, paid_orders, revenue from order_daily_stats
      where business_id = ${businessId} and day >= ${edge.toISOString().slice(0, 10)}::date
      union all
      select count(*), count(*) filter (where status <> 'CANCELLED'), coalesce(sum(amount) filter (where status <> 'CANCELLED'), 0)
      from orders where business_id = ${businessId} and created_at >= ${from.toISOString()}::timestamptz and created_at < ${edge.toISOString()}::timestamptz
    ) f`);
  return { orders: Number(row.orders), paidOrders: Number(row.paid_orders), revenue: Number(row.revenue) };
}

/** The top products of the dashboards (decision 090): see top-products.server.ts. */
export { topProducts } from "./top-products.server";
