/**
 * B5 Scale: the App API's order list (page 1 and page 200) at 1 thousand, 100 thousand and
 * 1 million orders, and developer analytics at 1 million delivery attempts.
 */
import { sql } from "drizzle-orm";
import { startBench, developer, percentile, table, writeResult, type Bench, runIfMain, round2 } from "./lib";
import { testInstallToken } from "./fixtures";

async function sample(url: string, headers: Record<string, string>, n = 40) {
  const times: number[] = [];
  for (let i = 0; i < n + 5; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    if (i >= 5) times.push(performance.now() - started);
  }
  return { p50: round2(percentile(times, 50)), p99: round2(percentile(times, 99)) };
}

/** Grows a business's orders to `target` (one item each), straight in SQL. */
async function growOrders(b: Bench, businessId: string, productId: string, target: number) {
  const [{ n }] = await b.db.db.execute<{ n: number }>(
    sql`select count(*)::int as n from orders where business_id = ${businessId}`,
  );
  const add = target - n;
  if (add <= 0) return;
  // bulk load: the per-row count trigger is switched off and the count set once afterwards
  await b.db.db.execute(sql`alter table orders disable trigger orders_count`);
  await b.db.db.execute(sql`
    insert into orders (id, business_id, order_number, status, subtotal, discount, delivery_fee, amount, currency, delivery_method, payment_method, payment_status, is_guest, customer_name, customer_phone, created_at, updated_at)
    select 'ord_bench_' || g, ${businessId}, (100000 + g)::text, (array['PENDING','CONFIRMED','DELIVERED','CANCELLED'])[1 + g % 4], 1200, 0, 300, 1500, 'USD', 'DELIVERY', 'CARD', 'NONE', true, 'Bench ' || g, '555',
           now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval
    from generate_series(${n + 1}::int, ${target}::int) g`);
  await b.db.db.execute(sql`
    insert into order_items (id, order_id, product_id, name, price, quantity)
    select 'itm_bench_' || g, 'ord_bench_' || g, ${productId}, 'Bench item', 1200, 1 from generate_series(${n + 1}::int, ${target}::int) g`);
  await b.db.db.execute(sql`alter table orders enable trigger orders_count`);
  await b.db.db.execute(sql`delete from business_counts where business_id = ${businessId} and entity = 'orders'`);
  await b.db.db.execute(
    sql`insert into business_counts (business_id, entity, shard, n) select ${businessId}, 'orders', 0, count(*) from orders where business_id = ${businessId}`,
  );
  await b.db.db.execute(sql`analyze orders`);
  await b.db.db.execute(sql`analyze order_items`);
}

export async function run() {
  const b = await startBench();
  try {
    const dev = await developer(b);
    const { token } = await testInstallToken(b, dev, ["read_orders"]);
    const headers = { Authorization: `Bearer ${token}` };
    const [product] = await b.db.db.execute<{ id: string }>(
      sql`select id from products where business_id = ${dev.business.id} limit 1`,
    );
    const rows: Record<string, unknown>[] = [];
    for (const size of [1_000, 100_000, 1_000_000]) {
      await growOrders(b, dev.business.id, product.id, size);
      const page1 = await sample(`${b.web.url}/app-api/orders?page=1&limit=20`, headers);
      const page200 = await sample(`${b.web.url}/app-api/orders?page=200&limit=20`, headers);
      rows.push({
        orders: size,
        "page 1 p50 ms": page1.p50,
        "page 1 p99 ms": page1.p99,
        "page 200 p50 ms": page200.p50,
        "page 200 p99 ms": page200.p99,
      });
      console.log(`orders ${size}: page1 ${page1.p50} ms, page200 ${page200.p50} ms`);
    }
    table("B5 App API order list", rows);

    // analytics at 1 million delivery attempts (and the rollup the attempt writer keeps)
    const { appId } = await testInstallToken(b, dev, ["read_orders"]);
    await b.db.db.execute(sql`
      insert into webhook_attempts (id, delivery_id, app_id, is_test_install, attempt_no, success, status_code, duration_ms, created_at)
      select 'att_bench_' || g, 'dlv_bench_' || (g / 2), ${appId}, false, 1 + g % 2, g % 10 <> 0, case when g % 50 = 0 then null else 200 end, 40 + g % 200,
             now() - ((g % (40 * 24 * 60)) || ' minutes')::interval
      from generate_series(1, 1000000) g`);
    await b.db.db.execute(sql`
      insert into webhook_daily_stats (app_id, day, succeeded, failed, answered, latency_total_ms)
      select app_id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD'), count(*) filter (where success), count(*) filter (where not success),
             count(*) filter (where status_code is not null), coalesce(sum(duration_ms) filter (where status_code is not null), 0)
      from webhook_attempts where app_id = ${appId} group by 1, 2`);
    await b.db.db.execute(sql`analyze webhook_attempts`);
    const analytics = await sample(`${b.web.url}/developer/apps/${appId}/analytics`, {
      Authorization: `Bearer ${dev.token}`,
    });
    table("B5 developer analytics at 1,000,000 attempts", [{ "p50 ms": analytics.p50, "p99 ms": analytics.p99 }]);
    const first = rows[0] as Record<string, number>;
    const last = rows[2] as Record<string, number>;
    writeResult("b5-scale", {
      orderList: rows,
      analyticsAt1M: analytics,
      page1GrowthFactor: round2(last["page 1 p50 ms"] / first["page 1 p50 ms"]),
    });
  } finally {
    await b.close();
  }
}

runIfMain(import.meta.url, run);
