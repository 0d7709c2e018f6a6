/**
 * The dashboards' top products from the businesses' windows (decision 090): product_window_sales,
 * kept by the orders' triggers and moved by the analytics__move_product_windows job, gives exactly
 * what the orders give, from any instant near the window's start, for each business alone; the
 * statements read a bounded number of rows whatever the shop's history; a dashboard without a window
 * queues the job that builds it (the worker runs it here).
 */
import { describe, expect, it } from "vitest";
import { sql, type SQL } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { appBody } from "../apps/apps.test-helpers";
import { SCOPE_NAMES } from "../shapes/app-catalog";
import { topProducts } from "./queries.server";
import { moveProductWindow, moveProductWindows, windowStart } from "./top-products.server";
import type { Db } from "../../../db/client";

const p = await startPlatform({ worker: true, env: { APP_API_RATE_LIMIT: "100000" } });
const DAY = 24 * 3600 * 1000;

async function merchant() {
  const dev = await p.register("DEVELOPER");
  const app = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody({ scopes: SCOPE_NAMES }) });
  const token = (await p.request("POST", `/developer/apps/${app.json.id}/test-install`, { token: dev.token })).json
    .accessToken as string;
  const products = (await p.request("GET", "/app-api/products?limit=5", { token })).json.data as { id: string }[];
  return { biz: dev.businessId as string, token, products };
}

async function order(m: Awaited<ReturnType<typeof merchant>>, lines: [number, number][]) {
  const res = await p.request("POST", "/app-api/orders", {
    token: m.token,
    body: {
      customer: { name: "Pat", phone: "+1 555 0100" },
      items: lines.map(([i, quantity]) => ({ productId: m.products[i].id, quantity })),
      deliveryMethod: "PICKUP",
      paymentMethod: "CASH",
    },
  });
  expect(res.status).toBe(201);
  return res.json.id as string;
}

/** The top 5 counted from the orders themselves. */
async function counted(biz: string, from: Date) {
  const top = await p.db.execute<{ product_id: string; name: string; quantity: number; revenue: number }>(sql`
    select i.product_id, min(i.name) as name, sum(i.quantity)::int as quantity, sum(i.quantity * i.price)::int as revenue
    from order_items i join orders o on o.id = i.order_id
    where o.business_id = ${biz} and o.created_at >= ${from.toISOString()}::timestamptz and o.status <> 'CANCELLED'
    group by i.product_id order by quantity desc, revenue desc, i.product_id limit 5`);
  return top.map((r) => ({ productId: r.product_id, name: r.name, quantity: r.quantity, revenue: r.revenue }));
}

/** The window's rows equal the daily rows of its days, summed per product. */
async function windowDrift(biz: string) {
  const [row] = await p.db.execute<{ bad: number }>(sql`
    select count(*)::int as bad from (
      select product_id, lines, quantity, revenue from product_window_sales where business_id = ${biz} and lines <> 0
    ) w full join (
      select product_id, sum(lines) as lines, sum(quantity) as quantity, sum(revenue) as revenue from product_daily_sales
      where business_id = ${biz} and day >= (select from_day from product_windows where business_id = ${biz}) and lines > 0
      group by product_id
    ) d using (product_id)
    where w.lines is distinct from d.lines or w.quantity is distinct from d.quantity or w.revenue is distinct from d.revenue`);
  return row.bad;
}

const queued = async (biz: string) =>
  (
    await p.db.execute<{ n: number }>(
      sql`select count(*)::int as n from graphile_worker.jobs where key = ${`product-window:${biz}`}`,
    )
  )[0].n;

/** The statements `call` runs, each with EXPLAIN ANALYZE: the rows its scans read (returned and filtered out). */
async function rowsRead(call: (db: Db) => Promise<unknown>) {
  const statements: SQL[] = [];
  const recording = new Proxy(p.db, {
    get(target, key, receiver) {
      if (key === "execute")
        return (q: SQL) => {
          statements.push(q);
          return target.execute(q);
        };
      return Reflect.get(target, key, receiver);
    },
  });
  await call(recording);
  const dialect = (p.db as unknown as { dialect: { sqlToQuery(q: SQL): { sql: string; params: unknown[] } } }).dialect;
  let read = 0;
  const visit = (node: Record<string, unknown>) => {
    if (typeof node["Relation Name"] === "string")
      read +=
        ((node["Actual Rows"] as number) + ((node["Rows Removed by Filter"] as number) ?? 0)) *
        (node["Actual Loops"] as number);
    for (const child of (node.Plans as Record<string, unknown>[]) ?? []) visit(child);
  };
  for (const q of statements) {
    const { sql: text, params } = dialect.sqlToQuery(q);
    if (/graphile_worker/.test(text)) continue;
    const [plan] = await p.sql.unsafe(`explain (analyze, format json) ${text}`, params as never[]);
    visit((plan["QUERY PLAN"] as { Plan: Record<string, unknown> }[])[0].Plan);
  }
  return read;
}

describe("top products from the windows", () => {
  it("equal the orders' figures through checkouts, moves, cancellations, edits, back-dating, deletes and window moves", async () => {
    const m = await merchant();
    const other = await merchant();
    await moveProductWindow(p.db, m.biz);
    await moveProductWindow(p.db, other.biz);
    const made: string[] = [];
    for (let i = 0; i < 5; i++)
      made.push(
        await order(m, [
          [i % 3, 1 + i],
          [3, 2],
        ]),
      );
    // the other business sells more of its own products: never in the first one's figures
    await order(other, [
      [0, 50],
      [1, 40],
    ]);
    const start = Date.parse(`${windowStart(new Date())}T00:00:00Z`);
    // the window's first instant (the App API's 30 UTC days), later ones (a shop west of UTC), earlier ones (east)
    const instants = [0, 5.5, 13, 24 + 7, -3, -20, -36].map((h) => new Date(start + h * 3600 * 1000));
    const expectSame = async () => {
      expect(await windowDrift(m.biz)).toBe(0);
      expect(await windowDrift(other.biz)).toBe(0);
      for (const from of instants) {
        expect(await topProducts(p.db, m.biz, from, 5), from.toISOString()).toEqual(await counted(m.biz, from));
        expect(await topProducts(p.db, other.biz, from, 5), from.toISOString()).toEqual(await counted(other.biz, from));
      }
      // read from the windows: nothing queued to build or move them
      expect(await queued(m.biz)).toBe(0);
    };
    await expectSame();
    await p.request("PATCH", `/app-api/orders/${made[0]}/status`, { token: m.token, body: { status: "CONFIRMED" } });
    await p.request("PATCH", `/app-api/orders/${made[1]}/status`, { token: m.token, body: { status: "CANCELLED" } });
    await expectSame();
    // a line edited and renamed, orders moved back across the window's start and out of it, one deleted
    await p.db.execute(
      sql`update order_items set quantity = quantity + 5, name = 'Renamed' where order_id = ${made[2]}`,
    );
    await p.db.execute(
      sql`update orders set created_at = ${new Date(start - 20 * 3600 * 1000).toISOString()}::timestamptz where id = ${made[3]}`,
    );
    await p.db.execute(
      sql`update orders set created_at = ${new Date(start + 2 * 3600 * 1000).toISOString()}::timestamptz where id = ${made[4]}`,
    );
    await p.db.execute(sql`update orders set status = 'PENDING' where id = ${made[1]}`);
    await p.db.execute(sql`delete from orders where id = ${made[0]}`);
    await expectSame();
    // the window moved back (rebuilt from the daily rows), then forward by the hourly job (the days left behind taken out)
    await moveProductWindow(p.db, m.biz, new Date(start - DAY).toISOString().slice(0, 10));
    await moveProductWindow(p.db, m.biz, new Date(start - 2 * DAY).toISOString().slice(0, 10));
    expect(await windowDrift(m.biz)).toBe(0);
    expect(await moveProductWindows(p.db)).toBeGreaterThanOrEqual(1);
    const [w] = await p.db.execute<{ d: string }>(
      sql`select to_char(from_day, 'YYYY-MM-DD') as d from product_windows where business_id = ${m.biz}`,
    );
    expect(w.d).toBe(windowStart(new Date()));
    await expectSame();
  });

  it("read a bounded number of rows, not every product-day row of the 30 days", async () => {
    const m = await merchant();
    // 30 days of 1,000 products each: 30,000 product-day rows, then the window built from them
    await p.db.execute(sql`
      insert into product_daily_sales (business_id, day, product_id, name, lines, quantity, revenue)
      select ${m.biz}, (now() at time zone 'UTC')::date - d, 'prd_many_' || g, 'Product ' || g, 1, 1 + (g * 7 + d) % 13, 1000 + g
      from generate_series(0, 29) d, generate_series(1, 1000) g`);
    await moveProductWindow(p.db, m.biz);
    const start = Date.parse(`${windowStart(new Date())}T00:00:00Z`);
    // the window's first instant: its first 5 rows and a probe a day for the names (5 products x 30 days)
    const exact = await rowsRead((db) => topProducts(db, m.biz, new Date(start), 5));
    expect(exact).toBeLessThan(300);
    // 5 hours later or earlier: besides, the product rows of the one day taken out or put in
    for (const h of [5, -5]) {
      const read = await rowsRead((db) => topProducts(db, m.biz, new Date(start + h * 3600 * 1000), 5));
      expect(read, `${h} h`).toBeLessThan(2_500);
    }
    expect(await topProducts(p.db, m.biz, new Date(start), 5)).toHaveLength(5);
  });

  it("a dashboard without a window queues the job that builds it, and the worker builds it", async () => {
    const m = await merchant();
    await order(m, [
      [0, 3],
      [1, 1],
    ]);
    const dash = await p.request("GET", "/app-api/analytics/dashboard", { token: m.token });
    expect(dash.status).toBe(200);
    // exact before the window exists (the daily rows)
    const start = new Date(`${windowStart(new Date())}T00:00:00Z`);
    const ids = (d: { topProducts: { productId: string }[] }) => d.topProducts.map((t) => t.productId);
    expect(ids(dash.json)).toEqual((await counted(m.biz, start)).map((t) => t.productId));
    expect(await queued(m.biz)).toBeLessThanOrEqual(1);
    const deadline = Date.now() + 15_000;
    let built: { d: string }[] = [];
    while (Date.now() < deadline && !built.length) {
      built = await p.db.execute<{ d: string }>(
        sql`select to_char(from_day, 'YYYY-MM-DD') as d from product_windows where business_id = ${m.biz}`,
      );
      if (!built.length) await new Promise((r) => setTimeout(r, 100));
    }
    expect(built[0]?.d).toBe(windowStart(new Date()));
    expect(await windowDrift(m.biz)).toBe(0);
    // new orders count at once (the triggers keep the window)
    await order(m, [[1, 200]]);
    const after = await p.request("GET", "/app-api/analytics/dashboard", { token: m.token });
    expect(ids(after.json)).toEqual((await counted(m.biz, start)).map((t) => t.productId));
    expect(after.json.topProducts[0]).toMatchObject({ productId: m.products[1].id });
  });
});
