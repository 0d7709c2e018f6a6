/**
 * The figures kept by the orders' triggers (migration order-rollups, decision 068) equal what a
 * count of the orders gives, through checkout (the single statement), status moves, cancellations,
 * edited lines, back-dated orders and deletes; and the dashboard reads them, exact from any instant.
 */
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { appBody } from "../apps/apps.test-helpers";
import { SCOPE_NAMES } from "../shapes/app-catalog";
import { dashboard, orderFigures, orderStatusCounts, topProducts } from "./queries.server";

const p = await startPlatform({ env: { APP_API_RATE_LIMIT: "100000" } });
const dev = await p.register("DEVELOPER");
const app = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody({ scopes: SCOPE_NAMES }) });
const token = (await p.request("POST", `/developer/apps/${app.json.id}/test-install`, { token: dev.token })).json
  .accessToken as string;
const biz = dev.businessId;

/** The figures counted from the orders themselves (the dashboard's former queries). */
async function counted(from: Date) {
  const [f] = await p.db.execute<{ orders: number; paid: number; revenue: number }>(sql`
    select count(*)::int as orders, count(*) filter (where status <> 'CANCELLED')::int as paid,
           coalesce(sum(amount) filter (where status <> 'CANCELLED'), 0)::int as revenue
    from orders where business_id = ${biz} and created_at >= ${from.toISOString()}::timestamptz`);
  const top = await p.db.execute<{ product_id: string; name: string; quantity: number; revenue: number }>(sql`
    select i.product_id, min(i.name) as name, sum(i.quantity)::int as quantity, sum(i.quantity * i.price)::int as revenue
    from order_items i join orders o on o.id = i.order_id
    where o.business_id = ${biz} and o.created_at >= ${from.toISOString()}::timestamptz and o.status <> 'CANCELLED'
    group by i.product_id order by quantity desc, revenue desc, i.product_id limit 5`);
  const statuses = await p.db.execute<{ status: string; n: number }>(
    sql`select status, count(*)::int as n from orders where business_id = ${biz} group by status`,
  );
  return {
    figures: { orders: f.orders, paidOrders: f.paid, revenue: f.revenue },
    top: top.map((r) => ({ productId: r.product_id, name: r.name, quantity: r.quantity, revenue: r.revenue })),
    statuses: Object.fromEntries(statuses.map((s) => [s.status, s.n])),
  };
}

async function expectSame(from: Date) {
  const want = await counted(from);
  expect(await orderFigures(p.db, biz, from)).toEqual(want.figures);
  expect(await topProducts(p.db, biz, from, 5)).toEqual(want.top);
  const byStatus = await orderStatusCounts(p.db, biz);
  for (const [s, n] of Object.entries(byStatus)) expect(n, s).toBe(want.statuses[s] ?? 0);
}

const products = (await p.request("GET", "/app-api/products?limit=5", { token })).json.data as { id: string }[];
const since = new Date(Date.now() - 40 * 24 * 3600 * 1000);

describe("order rollups", () => {
  it("match the orders after checkouts, moves, cancellations, edits, back-dating and deletes", async () => {
    await expectSame(since);
    const made: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await p.request("POST", "/app-api/orders", {
        token,
        body: {
          customer: { name: "Pat", phone: "+1 555 0100" },
          items: [
            { productId: products[i % 3].id, quantity: 1 + i },
            { productId: products[3].id, quantity: 2 },
          ],
          deliveryMethod: "PICKUP",
          paymentMethod: "CASH",
        },
      });
      expect(res.status).toBe(201);
      made.push(res.json.id);
    }
    await expectSame(since);
    // moves through the status machine, and a cancellation
    expect(
      (await p.request("PATCH", `/app-api/orders/${made[0]}/status`, { token, body: { status: "CONFIRMED" } })).status,
    ).toBe(200);
    expect(
      (await p.request("PATCH", `/app-api/orders/${made[1]}/status`, { token, body: { status: "CANCELLED" } })).status,
    ).toBe(200);
    await expectSame(since);
    // a line edited, an order moved to another day and re-priced, one un-cancelled by hand, one deleted
    await p.db.execute(
      sql`update order_items set quantity = quantity + 5, name = 'Renamed' where order_id = ${made[2]}`,
    );
    await p.db.execute(
      sql`update orders set created_at = created_at - interval '3 days', amount = amount + 100 where id = ${made[3]}`,
    );
    await p.db.execute(sql`update orders set status = 'PENDING' where id = ${made[1]}`);
    await p.db.execute(sql`delete from orders where id = ${made[0]}`);
    await p.db.execute(
      sql`delete from order_items where id = (select min(id) from order_items where order_id = ${made[2]})`,
    );
    await expectSame(since);
    // exact from any instant, not only UTC midnights (a shop's local day)
    for (const hours of [0, 5.5, 13, 24 * 3 + 7, 24 * 29]) await expectSame(new Date(Date.now() - hours * 3600 * 1000));
  });

  it("are what the dashboard answers", async () => {
    const d = await dashboard(p.db, biz, "USD");
    const t = new Date();
    const todayStart = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate()));
    const want = await counted(new Date(todayStart.getTime() - 29 * 24 * 3600 * 1000));
    expect(d.last30Days.orders).toBe(want.figures.orders);
    expect(d.topProducts.map((x) => x.productId)).toEqual(want.top.map((x) => x.productId));
    expect(Object.values(d.ordersByStatus).reduce((a, b) => a + b, 0)).toBe(
      Object.values(want.statuses).reduce((a, b) => a + b, 0),
    );
  });

  it("backfill: the migration's sums equal the triggers' on the same data", async () => {
    const [row] = await p.db.execute<{ bad: number }>(sql`
      select count(*)::int as bad from (
        select day, sum(orders) as n, sum(paid_orders) as paid, sum(revenue) as revenue from order_daily_stats where business_id = ${biz} group by day
      ) r full join (
        select (created_at at time zone 'UTC')::date as day, count(*) as n, count(*) filter (where status <> 'CANCELLED') as paid,
               coalesce(sum(amount) filter (where status <> 'CANCELLED'), 0) as revenue
        from orders where business_id = ${biz} group by 1
      ) o using (day)
      where coalesce(r.n, 0) <> coalesce(o.n, 0) or coalesce(r.paid, 0) <> coalesce(o.paid, 0) or coalesce(r.revenue, 0) <> coalesce(o.revenue, 0)`);
    expect(row.bad).toBe(0);
  });
});
