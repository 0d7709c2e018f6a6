/**
 * The dashboards' top products (decision 090): the products sold most in orders not cancelled
 * created at or after an instant, exact, read from product_window_sales (each product's sales from
 * its business's window's first UTC day on, kept by the orders' triggers) with the sales between
 * that day and the instant taken out or put in; product_daily_sales when the business has no window
 * yet or its window is more than WINDOW_SLACK_DAYS away (a job is queued to build or move it).
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { addJob } from "../core/jobs.server";
import { now } from "../core/clock.server";

export type TopProduct = { productId: string; name: string; quantity: number; revenue: number };

const DAY = 24 * 3600 * 1000;
/** How far (days) the instant may be from the window's first day and the window still be read. */
export const WINDOW_SLACK_DAYS = 2;
/** How many days back the windows start: the first UTC day of the App API's 30 days (its "today" is the 30th). */
export const WINDOW_DAYS = 29;
export const MOVE_WINDOWS_TASK = "analytics__move_product_windows";

const ymd = (t: number) => new Date(t).toISOString().slice(0, 10);
const floorDay = (t: number) => Math.floor(t / DAY) * DAY;
const ceilDay = (t: number) => Math.ceil(t / DAY) * DAY;

/** The first day the windows should start on at `t`: the UTC day WINDOW_DAYS days before t's. */
export const windowStart = (t: Date) => ymd(floorDay(t.getTime()) - WINDOW_DAYS * DAY);

/**
 * The `limit` products sold most (by quantity, then revenue, then id) in orders not cancelled created
 * at or after `from`, named by the least of their lines' names.
 */
export async function topProducts(db: Db, businessId: string, from: Date, limit: number): Promise<TopProduct[]> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const [win] = await db.execute<{ from_day: string }>(
      sql`select to_char(from_day, 'YYYY-MM-DD') as from_day from product_windows where business_id = ${businessId}`,
    );
    const start = win ? Date.parse(`${win.from_day}T00:00:00Z`) : null;
    if (start === null || Math.abs(from.getTime() - start) > WINDOW_SLACK_DAYS * DAY) {
      // the job builds the window (or moves it to today's start) once; until then, the daily rows
      await addJob(db, MOVE_WINDOWS_TASK, { businessId }, { jobKey: `product-window:${businessId}` });
      break;
    }
    const ranked = await fromWindow(db, businessId, from, limit, win.from_day, start);
    // null: the window moved between the two statements (the job at the turn of the day): read again
    if (ranked) return named(db, businessId, from, ranked);
  }
  return named(db, businessId, from, await fromDays(db, businessId, from, limit));
}

type Ranked = { product_id: string; quantity: string; revenue: string };

/**
 * The window's ranking adjusted by the sales between its first day and `from`: taken out when `from`
 * is later (then a product beyond the window's first limit + |taken out| rows cannot rank: at least
 * `limit` rows above it keep their figures, and its own can only drop), put in when earlier (then only
 * the window's first `limit` rows and the products with sales put in can rank). Null when the window
 * no longer starts on `fromDay` (it moved since it was read).
 */
async function fromWindow(db: Db, businessId: string, from: Date, limit: number, fromDay: string, start: number) {
  const f = from.getTime();
  const later = f >= start;
  // the sales between: whole UTC days from the daily rows, the part of a day from the order lines
  const [days, lines] = later
    ? [
        [fromDay, ymd(floorDay(f))],
        [new Date(floorDay(f)), from],
      ]
    : [
        [ymd(ceilDay(f)), fromDay],
        [from, new Date(ceilDay(f))],
      ];
  const between = sql`
    select product_id, sum(lines)::bigint as lines, sum(quantity)::bigint as quantity, sum(revenue)::bigint as revenue from (
      select product_id, lines, quantity, revenue from product_daily_sales
      where business_id = ${businessId} and day >= ${days[0]}::date and day < ${days[1]}::date and lines > 0
      union all
      select i.product_id, 1, i.quantity, i.quantity::bigint * i.price
      from order_items i join orders o on o.id = i.order_id
      where o.business_id = ${businessId} and o.created_at >= ${lines[0].toISOString()}::timestamptz
        and o.created_at < ${lines[1].toISOString()}::timestamptz and o.status <> 'CANCELLED'
    ) s group by product_id`;
  const rows = later
    ? await db.execute<Ranked & { moved: boolean }>(sql`
    with window_start as (select from_day from product_windows where business_id = ${businessId}),
    adj as materialized (${between}),
    top as (
      select product_id, lines, quantity, revenue from product_window_sales
      where business_id = ${businessId} and lines > 0
      order by quantity desc, revenue desc, product_id
      limit ${limit} + (select count(*) from adj)
    )
    select t.product_id, (t.quantity - coalesce(a.quantity, 0))::bigint as quantity, (t.revenue - coalesce(a.revenue, 0))::bigint as revenue,
           false as moved
    from top t left join adj a on a.product_id = t.product_id
    where t.lines - coalesce(a.lines, 0) > 0 and (select from_day from window_start) = ${fromDay}::date
    union all
    select null, null, null, true where (select from_day from window_start) is distinct from ${fromDay}::date
    order by moved, quantity desc, revenue desc, product_id limit ${limit}`)
    : await db.execute<Ranked & { moved: boolean }>(sql`
    with window_start as (select from_day from product_windows where business_id = ${businessId}),
    adj as materialized (${between}),
    top as (
      select product_id from product_window_sales
      where business_id = ${businessId} and lines > 0
      order by quantity desc, revenue desc, product_id limit ${limit}
    ),
    candidates as (select product_id from top union select product_id from adj)
    select c.product_id, (coalesce(w.quantity, 0) + coalesce(a.quantity, 0))::bigint as quantity,
           (coalesce(w.revenue, 0) + coalesce(a.revenue, 0))::bigint as revenue, false as moved
    from candidates c
    left join product_window_sales w on w.business_id = ${businessId} and w.product_id = c.product_id
    left join adj a on a.product_id = c.product_id
    where coalesce(w.lines, 0) + coalesce(a.lines, 0) > 0 and (select from_day from window_start) = ${fromDay}::date
    union all
    select null, null, null, true where (select from_day from window_start) is distinct from ${fromDay}::date
    order by moved, quantity desc, revenue desc, product_id limit ${limit}`);
  if (rows.some((r) => r.moved)) return null;
  return rows as Ranked[];
}

/** The ranking from every product-day row since `from` (the figures before the windows; no window yet). */
async function fromDays(db: Db, businessId: string, from: Date, limit: number) {
  const edge = new Date(ceilDay(from.getTime()));
  return db.execute<Ranked>(sql`
    select product_id, sum(quantity)::bigint as quantity, sum(revenue)::bigint as revenue
    from (
      select product_id, quantity, revenue from product_daily_sales
      where business_id = ${businessId} and day >= ${ymd(edge.getTime())}::date and lines > 0
      union all
      select i.product_id, i.quantity, i.quantity::bigint * i.price
      from order_items i join orders o on o.id = i.order_id
      where o.business_id = ${businessId} and o.created_at >= ${from.toISOString()}::timestamptz
        and o.created_at < ${edge.toISOString()}::timestamptz and o.status <> 'CANCELLED'
    ) s
    group by product_id order by quantity desc, revenue desc, product_id limit ${limit}`);
}

/**
 * The ranked products with their names: the least name of their lines since `from` (the daily rows of
 * each day from the first whole UTC day to the last one with sales, probed one day at a time, and the
 * order lines of the part of a day before it).
 */
async function named(db: Db, businessId: string, from: Date, ranked: Ranked[]): Promise<TopProduct[]> {
  if (!ranked.length) return [];
  const edge = new Date(ceilDay(from.getTime()));
  const ids = sql.join(
    ranked.map((r) => sql`${r.product_id}`),
    sql`, `,
  );
  const names = await db.execute<{ product_id: string; name: string }>(sql`
    select product_id, min(name) as name from (
      select s.product_id, s.name
      from generate_series(${ymd(edge.getTime())}::date,
             greatest(${ymd(edge.getTime())}::date, (select max(day) from product_daily_sales where business_id = ${businessId})),
             interval '1 day') g(day),
      -- one index probe a day (offset 0: not flattened into a join that reads every day of the business)
      lateral (select s.product_id, s.name from product_daily_sales s
               where s.business_id = ${businessId} and s.day = g.day::date and s.product_id in (${ids}) and s.lines > 0 offset 0) s
      union all
      select i.product_id, i.name from order_items i join orders o on o.id = i.order_id
      where o.business_id = ${businessId} and o.created_at >= ${from.toISOString()}::timestamptz
        and o.created_at < ${edge.toISOString()}::timestamptz and o.status <> 'CANCELLED' and i.product_id in (${ids})
    ) n group by product_id`);
  const byId = new Map(names.map((n) => [n.product_id, n.name]));
  return ranked.map((r) => ({
    productId: r.product_id,
    name: byId.get(r.product_id) ?? "",
    quantity: Number(r.quantity),
    revenue: Number(r.revenue),
  }));
}

/** Builds or moves the business's window to start on `day` (the job; the bench after growing a shop in SQL). */
export async function moveProductWindow(db: Db, businessId: string, day = windowStart(now())) {
  await db.execute(sql`select product_window_move(${businessId}, ${day}::date)`);
}

/** Moves every window that starts before today's start to it, one business at a time (the hourly job); the count moved. */
export async function moveProductWindows(db: Db, day = windowStart(now())) {
  const behind = await db.execute<{ business_id: string }>(
    sql`select business_id from product_windows where from_day < ${day}::date order by business_id`,
  );
  for (const w of behind) await moveProductWindow(db, w.business_id, day);
  return behind.length;
}
