/**
 * Read queries of the merchant admin pages, every one scoped to a business. Money stays in minor
 * units (cents) here; the pages format it with the business currency.
 */
import { and, asc, count, desc, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../../db/client";
import {
  orderItems,
  orders,
  orderStatusChanges,
  products,
  reviews,
  ORDER_SEARCH_TEXT,
  ORDER_STATUSES,
  type OrderStatus,
} from "../../../db/schema";
import { now } from "../core/clock.server";
import { countOf, getOrderRow, orderStatusCounts as statusCounters } from "./queries.server";
import { MIN_TEXT_SEARCH, ORDER_SORTS, isFiltered, type OrderFilter, type OrderSort } from "./order-filter";
import { newestFirst, pageWithTotal } from "../core/paging.server";

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
  // the daily rollups kept by the orders' triggers (decision 068)
  const rows = await db.execute<{ day: string; orders: number; revenue: number }>(sql`
    select to_char(day, 'YYYY-MM-DD') as day, sum(orders)::int as orders, sum(revenue)::int as revenue
    from order_daily_stats
    where business_id = ${businessId}
      and day >= ${utcDate(since)}::date
      and day < ${utcDate(until)}::date
    group by day`);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return Array.from({ length: days }, (_, i) => {
    const date = utcDate(new Date(since.getTime() + i * DAY_MS));
    const row = byDay.get(date);
    return { date, orders: row?.orders ?? 0, revenue: row?.revenue ?? 0 };
  });
}

// ---------------------------------------------------------------------------------------------
// The orders list: search, status, a date range in the business's time zone, four sorts, and the
// CSV export of the same filter. Every shape is served by an index (decision 018):
// (business_id, created_at desc, id desc) for the date sorts and ranges, (business_id, status,
// created_at desc) for a status, (business_id, amount desc, id desc) for the amount sorts, and the
// trigram index on ORDER_SEARCH_TEXT for the search.

export {
  ORDER_SORTS,
  ORDER_SORT_LABELS,
  MIN_TEXT_SEARCH,
  orderFilterQuery,
  isFiltered,
  type OrderSort,
  type OrderFilter,
} from "./order-filter";
const MAX_SEARCH = 100;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
function isCalendarDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1970 && y <= 9999 && t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/**
 * The orders list's filter from its query string (`q`, `status`, `from`, `to`, `sort`). Pages never
 * fail on a bad link: a value that cannot be used is left out and named in `notices`.
 */
export function parseOrderFilter(
  params: URLSearchParams,
  timeZone: string,
): { filter: OrderFilter; notices: string[] } {
  const notices: string[] = [];
  const q = (params.get("q") ?? "").trim().slice(0, MAX_SEARCH);
  const rawStatus = params.get("status") ?? "";
  const status = (ORDER_STATUSES as readonly string[]).includes(rawStatus) ? (rawStatus as OrderStatus) : null;
  if (rawStatus && !status) notices.push(`There is no order status "${rawStatus.slice(0, 40)}": showing every status.`);
  const date = (name: "from" | "to", label: string) => {
    const v = (params.get(name) ?? "").trim();
    if (!v) return null;
    if (isCalendarDate(v)) return v;
    notices.push(`"${v.slice(0, 40)}" is not a date (${label}): it was left out.`);
    return null;
  };
  let from = date("from", "From");
  let to = date("to", "To");
  if (from && to && from > to) {
    notices.push(`The range ended (${to}) before it started (${from}): the dates were swapped.`);
    [from, to] = [to, from];
  }
  const rawSort = params.get("sort") ?? "";
  const sort = (ORDER_SORTS as readonly string[]).includes(rawSort) ? (rawSort as OrderSort) : "newest";
  return { filter: { q, status, from, to, sort, timeZone }, notices };
}

/** The search's conditions: an order number, or text in the number, name, phone (also as digits) or e-mail. */
function searchCondition(q: string): SQL | undefined {
  if (!q) return undefined;
  const number = q.replace(/^#/, "");
  if (q.length < MIN_TEXT_SEARCH || /^#\d+$/.test(q)) return eq(orders.orderNumber, number);
  const text = sql.raw(ORDER_SEARCH_TEXT);
  const patterns = [q];
  const digits = q.replace(/[\s().+-]/g, "");
  if (/^\d+$/.test(digits) && digits !== q && digits.length >= MIN_TEXT_SEARCH) patterns.push(digits);
  return or(...patterns.map((p) => sql`${text} ilike ${`%${escapeLike(p)}%`}`));
}

/** Where the filter's orders are, always within the business. */
function orderWhere(businessId: string, f: OrderFilter): SQL {
  const conditions: (SQL | undefined)[] = [eq(orders.businessId, businessId)];
  if (f.status) conditions.push(eq(orders.status, f.status));
  // local midnight of the day in the business's zone; `to` is inclusive: before the next day's midnight
  if (f.from) conditions.push(sql`${orders.createdAt} >= (${f.from}::date::timestamp at time zone ${f.timeZone})`);
  if (f.to) conditions.push(sql`${orders.createdAt} < ((${f.to}::date + 1)::timestamp at time zone ${f.timeZone})`);
  conditions.push(searchCondition(f.q));
  return and(...conditions)!;
}

function orderSort(sort: OrderSort) {
  switch (sort) {
    case "oldest":
      return [asc(orders.createdAt), asc(orders.id)];
    case "amount_desc":
      return [desc(orders.amount), desc(orders.id)];
    case "amount_asc":
      return [asc(orders.amount), asc(orders.id)];
    default:
      return [desc(orders.createdAt), desc(orders.id)];
  }
}

const listColumns = {
  id: orders.id,
  orderNumber: orders.orderNumber,
  status: orders.status,
  createdAt: orders.createdAt,
  customerName: orders.customerName,
  customerPhone: orders.customerPhone,
  customerEmail: orders.customerEmail,
  amount: orders.amount,
  currency: orders.currency,
  paymentStatus: orders.paymentStatus,
  paymentMethod: orders.paymentMethod,
  itemCount: sql<number>`(select coalesce(sum(i.quantity), 0)::int from order_items i where i.order_id = "orders"."id")`,
};
export type OrderListRow = {
  id: string;
  orderNumber: string;
  status: OrderStatus;
  createdAt: Date;
  customerName: string;
  customerPhone: string;
  customerEmail: string | null;
  amount: number;
  currency: string;
  paymentStatus: string;
  paymentMethod: string;
  itemCount: number;
};

/** The two statements of searchOrders (a page, and the count of every match), also for EXPLAIN in tests. */
export function searchOrderStatements(
  db: Db,
  businessId: string,
  filter: OrderFilter,
  options: { page: number; pageSize?: number },
) {
  const size = options.pageSize ?? ADMIN_PAGE_SIZE;
  const where = orderWhere(businessId, filter);
  return [
    db
      .select(listColumns)
      .from(orders)
      .where(where)
      .orderBy(...orderSort(filter.sort))
      .limit(size)
      .offset((options.page - 1) * size),
    db.select({ n: count() }).from(orders).where(where),
  ] as const;
}

/** A page of the business's orders matching the filter, and how many match in all. */
export async function searchOrders(
  db: Db,
  businessId: string,
  filter: OrderFilter,
  options: { page: number; pageSize?: number },
) {
  const [page, matches] = searchOrderStatements(db, businessId, filter, options);
  const [rows, total] = await Promise.all([
    page,
    // the unfiltered total is kept by triggers (business_counts)
    isFiltered(filter) ? matches.then(([r]) => r.n) : countOf(db, businessId, "orders"),
  ]);
  return { rows: rows as OrderListRow[], total };
}

const exportColumns = {
  ...listColumns,
  subtotal: orders.subtotal,
  discount: orders.discount,
  deliveryFee: orders.deliveryFee,
  deliveryMethod: orders.deliveryMethod,
  address: orders.address,
  notes: orders.notes,
  items: sql<string>`(select coalesce(string_agg(i.quantity || ' x ' || i.name, '; ' order by i.id), '') from order_items i where i.order_id = "orders"."id")`,
  /** the exact stored time (microseconds), for the next batch's keyset */
  cursorAt: sql<string>`${orders.createdAt}::text`,
};
export type OrderExportRow = OrderListRow & {
  subtotal: number;
  discount: number;
  deliveryFee: number;
  deliveryMethod: string;
  address: string | null;
  notes: string | null;
  items: string;
  cursorAt: string;
  localTime: string;
};

/**
 * Every order of the business matching the filter, in the filter's order, in batches read by
 * keyset (no offset, no long transaction), each with its local time in the business's zone.
 */
export async function* ordersForExport(
  db: Db,
  businessId: string,
  filter: OrderFilter,
  batchSize = 500,
): AsyncGenerator<OrderExportRow[]> {
  const where = orderWhere(businessId, filter);
  let after: { at: string; amount: number; id: string } | null = null;
  const byAmount = filter.sort === "amount_desc" || filter.sort === "amount_asc";
  const down = filter.sort === "newest" || filter.sort === "amount_desc";
  for (;;) {
    let keyset: SQL | undefined;
    if (after) {
      // `(k, id) < (k0, id0)` written so that k bounds the index scan: k <= k0 and (k < k0 or id < id0)
      const k = byAmount ? sql`${orders.amount}` : sql`${orders.createdAt}`;
      const k0: SQL = byAmount ? sql`${after.amount}::int` : sql`${after.at}::timestamptz`;
      keyset = down
        ? sql`${k} <= ${k0} and (${k} < ${k0} or ${orders.id} < ${after.id})`
        : sql`${k} >= ${k0} and (${k} > ${k0} or ${orders.id} > ${after.id})`;
    }
    const rows: OrderExportRow[] = await db
      .select({
        ...exportColumns,
        localTime: sql<string>`to_char(${orders.createdAt} at time zone ${filter.timeZone}, 'YYYY-MM-DD HH24:MI')`,
      })
      .from(orders)
      .where(keyset ? and(where, keyset) : where)
      .orderBy(...orderSort(filter.sort))
      .limit(batchSize);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < batchSize) return;
    const last: OrderExportRow = rows[rows.length - 1];
    after = { at: last.cursorAt, amount: last.amount, id: last.id };
  }
}
