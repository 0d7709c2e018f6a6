/**
 * Fast at any size (issue 45): one shop grown straight in SQL (generate_series, set-based inserts;
 * not through the API) to 1,000 orders and then to N (default 1,000,000; `--orders 100000` for a
 * quicker run), with 50,000 products, two lines and one webhook delivery per order, over a year;
 * then each figure of the table, measured through HTTP against the real server (the median
 * and p95 of several requests after a warm-up), at both sizes:
 *
 *   App API orders: the last page by `page=N` (OFFSET) and the same depth by `after=<nextCursor>`
 *   admin orders: page 1, a status, a search, a date range, and a deep page by `page=N` and by cursor
 *   admin dashboard and GET /app-api/analytics/dashboard
 *   webhook deliveries page 1: GET /webhooks/<id>/deliveries and the portal's log
 *   the CSV export of every order: Export to ready (the background job, decision 081), the download,
 *   and the memory growth of the process (web and worker) over both
 *
 *   npm run bench:scale [-- --orders 100000] [-- --samples 7] [-- --keep]   (writes bench/results/scale.json;
 *   --keep leaves the grown shop's database up and prints its URL, for EXPLAIN at scale)
 */
import { sql } from "drizzle-orm";
import { developer, percentile, round2, runIfMain, startBench, table, writeResult, type Bench } from "./lib";
import { testInstallToken } from "./fixtures";
import { BrowserSession } from "../app/platform/testing/browser";
import { EXPORT_BATCH } from "../app/platform/orders/exports.server";
import { moveProductWindow } from "../app/platform/catalog/top-products.server";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ORDERS = arg("orders", 1_000_000);
const SAMPLES = arg("samples", 7);
const PRODUCTS = 50_000;
const say = (line: string) => console.log(`[bench:scale] ${line}`);

/** The median and p95 of `n` timed calls after one warm-up. */
async function timed(n: number, call: () => Promise<unknown>) {
  await call();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  return { median: round2(percentile(times, 50)), p95: round2(percentile(times, 95)) };
}

async function get(url: string, headers: Record<string, string>) {
  const res = await fetch(url, { headers });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${text.slice(0, 200)}`);
  return text;
}

/** Grows the business to `target` orders (two lines and one delivery each) in set-based SQL, then sets its counters and rollups once. */
async function grow(
  b: Bench,
  businessId: string,
  webhook: { id: string; installationId: string; appId: string },
  target: number,
) {
  const db = b.db.db;
  const [{ n }] = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from orders where business_id = ${businessId}`,
  );
  if (target <= n) return;
  const started = performance.now();
  // bulk load: the per-row triggers are off, and the business's counters and rollups are set afterwards
  for (const t of ["orders", "order_items"]) await db.execute(sql.raw(`alter table ${t} disable trigger user`));
  try {
    for (let from = n + 1; from <= target; from += 200_000) {
      const to = Math.min(target, from + 199_999);
      await db.execute(sql`
        insert into orders (id, business_id, order_number, status, subtotal, discount, delivery_fee, amount, currency, delivery_method,
                            payment_method, payment_status, is_guest, customer_name, customer_phone, customer_email, created_at, updated_at)
        select 'ord_scale_' || g, ${businessId}, 'S' || g, (array['PENDING','CONFIRMED','PREPARING','READY','DELIVERED','DELIVERED','CANCELLED'])[1 + g % 7],
               1000 + g % 9000, 0, 300, 1300 + g % 9000, 'USD', 'DELIVERY', 'CARD', 'NONE', true, 'Customer ' || g,
               '+1 555 ' || lpad((g % 10000)::text, 4, '0'), 'c' || g || '@example.com',
               now() - ((${target}::int - g) * (365 * 86400.0 / ${target}::int) || ' seconds')::interval, now()
        from generate_series(${from}::int, ${to}::int) g`);
      await db.execute(sql`
        insert into order_items (id, order_id, product_id, name, price, quantity)
        select 'itm_scale_' || g || '_' || k, 'ord_scale_' || g, 'prd_scale_' || ((g * 7 + k * 13) % ${PRODUCTS}),
               'Product ' || ((g * 7 + k * 13) % ${PRODUCTS}), 500 + (g % 40) * 25, 1 + (g + k) % 3
        from generate_series(${from}::int, ${to}::int) g, generate_series(1, 2) k`);
      await db.execute(sql`
        insert into webhook_deliveries (id, event_id, event, webhook_id, installation_id, app_id, business_id, body, status, attempts, last_status_code, created_at, updated_at)
        select 'dlv_scale_' || g, 'evt_scale_' || g, 'order.created', ${webhook.id}, ${webhook.installationId}, ${webhook.appId}, ${businessId}, '{}',
               'SUCCEEDED', 1, 200, now() - ((${target}::int - g) * (365 * 86400.0 / ${target}::int) || ' seconds')::interval, now()
        from generate_series(${from}::int, ${to}::int) g`);
      say(`  ${to.toLocaleString("en-US")} orders`);
    }
  } finally {
    for (const t of ["orders", "order_items"]) await db.execute(sql.raw(`alter table ${t} enable trigger user`));
  }
  // the counters and rollups of the business, recomputed once (what the triggers keep row by row)
  await db.execute(
    sql`delete from business_counts where business_id = ${businessId} and (entity = 'orders' or entity like 'orders:%')`,
  );
  await db.execute(sql`
    insert into business_counts (business_id, entity, shard, n)
    select ${businessId}, 'orders', 0, count(*) from orders where business_id = ${businessId}
    union all select ${businessId}, 'orders:' || status, 0, count(*) from orders where business_id = ${businessId} group by status`);
  await db.execute(sql`delete from order_daily_stats where business_id = ${businessId}`);
  await db.execute(sql`
    insert into order_daily_stats (business_id, day, shard, orders, paid_orders, revenue)
    select business_id, (created_at at time zone 'UTC')::date, 0, count(*), count(*) filter (where status <> 'CANCELLED'),
           coalesce(sum(amount) filter (where status <> 'CANCELLED'), 0)
    from orders where business_id = ${businessId} group by 1, 2`);
  await db.execute(sql`delete from product_daily_sales where business_id = ${businessId}`);
  await db.execute(sql`
    insert into product_daily_sales (business_id, day, product_id, name, lines, quantity, revenue)
    select o.business_id, (o.created_at at time zone 'UTC')::date, i.product_id, i.name, count(*), sum(i.quantity), sum(i.quantity::bigint * i.price)
    from order_items i join orders o on o.id = i.order_id where o.business_id = ${businessId} and o.status <> 'CANCELLED'
    group by 1, 2, 3, 4`);
  // the top products' window (decision 090), rebuilt from the daily rows as the job builds it
  await db.execute(sql`delete from product_windows where business_id = ${businessId}`);
  await moveProductWindow(db, businessId);
  for (const t of [
    "orders",
    "order_items",
    "webhook_deliveries",
    "product_daily_sales",
    "order_daily_stats",
    "product_window_sales",
  ])
    await db.execute(sql.raw(`vacuum analyze ${t}`));
  say(`grown to ${target.toLocaleString("en-US")} orders in ${Math.round((performance.now() - started) / 1000)} s`);
}

async function measure(
  b: Bench,
  ctx: { token: string; appId: string; webhookId: string; businessId: string; admin: BrowserSession; size: number },
) {
  const api = { Authorization: `Bearer ${ctx.token}` };
  const url = (path: string) => `${b.env.publicUrl}${path}`;
  const figures: Record<string, { median: number; p95: number }> = {};
  const lastPage = Math.ceil(ctx.size / 50);
  figures["App API orders, last page (page=N)"] = await timed(Math.min(SAMPLES, 3), () =>
    get(url(`/app-api/orders?limit=50&page=${lastPage}`), api),
  );
  // a cursor as deep: the one page N-1 answers (read once)
  const before = JSON.parse(await get(url(`/app-api/orders?limit=50&page=${Math.max(1, lastPage - 1)}`), api));
  figures["App API orders, last page (after=cursor)"] = await timed(SAMPLES, () =>
    get(url(`/app-api/orders?limit=50&after=${encodeURIComponent(before.nextCursor)}`), api),
  );
  const admin = (path: string) => async () => {
    const res = await ctx.admin.get(path);
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    return res.html;
  };
  figures["admin orders, page 1"] = await timed(SAMPLES, admin("/admin/orders"));
  figures["admin orders, a status"] = await timed(SAMPLES, admin("/admin/orders?status=CONFIRMED"));
  figures["admin orders, a search"] = await timed(SAMPLES, admin("/admin/orders?q=Customer%2012"));
  figures["admin orders, a 90-day range"] = await timed(
    SAMPLES,
    admin(`/admin/orders?from=${new Date(Date.now() - 90 * 86400_000).toISOString().slice(0, 10)}`),
  );
  const deep = Math.ceil(ctx.size / 20);
  figures["admin orders, deep page (page=N)"] = await timed(
    Math.min(SAMPLES, 3),
    admin(`/admin/orders?page=${Math.min(deep, 10_000)}`),
  );
  const deepHtml = await admin(`/admin/orders?page=${Math.min(deep, 10_000) - 1}`)();
  const next = /<a rel="next"[^>]*href="([^"]+)"/.exec(deepHtml)?.[1]?.replace(/&amp;/g, "&") ?? "/admin/orders";
  figures["admin orders, deep page (Next by cursor)"] = await timed(SAMPLES, admin(next));
  figures["admin dashboard"] = await timed(SAMPLES, admin("/admin"));
  figures["App API analytics/dashboard"] = await timed(SAMPLES, () => get(url("/app-api/analytics/dashboard"), api));
  figures["webhook deliveries page 1 (App API)"] = await timed(SAMPLES, () =>
    get(url(`/webhooks/${ctx.webhookId}/deliveries`), api),
  );
  figures["webhook deliveries page 1 (portal log)"] = await timed(SAMPLES, admin(`/portal/apps/${ctx.appId}/webhooks`));
  // the CSV export of every order, as the merchant gets it (decision 081): Export (the page's form), the
  // background job until READY (polled as the page polls), then the download, read as a stream and
  // counted, never held; the process's memory growth over both (web server and worker run in this process)
  // two figures: the resident set's peak growth, which also counts garbage not yet collected (V8
  // lets its old space grow before a full collection, and each 0.6 MB chunk lands there), and what
  // stays alive: the heap and the buffers after a full collection, sampled every 250 ms
  const live = () => {
    global.gc?.();
    const m = process.memoryUsage();
    return m.heapUsed + m.external;
  };
  const rss = process.memoryUsage().rss;
  const liveBefore = live();
  let peak = rss;
  let livePeak = liveBefore;
  const watch = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const watchLive = setInterval(() => (livePeak = Math.max(livePeak, live())), 250);
  const asked = performance.now();
  const pressed = await ctx.admin.post("/admin/orders?index", { intent: "export" });
  if (pressed.status !== 303) throw new Error(`export: ${pressed.status} ${pressed.html.slice(0, 200)}`);
  const [{ id }] = await b.db.db.execute<{ id: string }>(
    sql`select id from order_exports where business_id = ${ctx.businessId} order by created_at desc limit 1`,
  );
  let view: { status: string; rows: number; bytes: number } = { status: "QUEUED", rows: 0, bytes: 0 };
  while (view.status !== "READY") {
    await new Promise((r) => setTimeout(r, 200));
    view = JSON.parse(await admin(`/admin/orders/exports/${id}`)());
    if (view.status === "FAILED") throw new Error(`export ${id} failed`);
  }
  const ready = performance.now();
  const fileUrl = new URL(`/admin/orders/exports/${id}/download`, b.env.publicUrl);
  const file = await fetch(fileUrl, { headers: { Cookie: ctx.admin.cookieHeader(fileUrl) } });
  if (file.status !== 200 || !file.body) throw new Error(`download: ${file.status}`);
  let bytes = 0;
  for await (const part of file.body as unknown as AsyncIterable<Uint8Array>) bytes += part.length;
  const downloaded = performance.now();
  clearInterval(watch);
  clearInterval(watchLive);
  if (view.rows !== ctx.size) throw new Error(`export: ${view.rows} rows of ${ctx.size}`);
  figures["CSV export of all orders: Export to ready (job)"] = {
    median: round2(ready - asked),
    p95: round2(ready - asked),
  };
  figures["CSV export of all orders: the download"] = {
    median: round2(downloaded - ready),
    p95: round2(downloaded - ready),
  };
  return {
    figures,
    exportMemoryMb: round2((peak - rss) / 1024 / 1024),
    exportLiveMemoryMb: round2((livePeak - liveBefore) / 1024 / 1024),
    exportBytes: bytes,
    exportRowsPerQuery: EXPORT_BATCH,
  };
}

export async function run() {
  // the worker in this process prepares the exports (orders__export)
  const b = await startBench({ worker: true, workerConcurrency: 2 });
  try {
    const dev = await developer(b);
    const business = dev.business.id;
    const inst = await testInstallToken(b, dev, ["read_orders", "read_analytics", "read_products"], {
      webhookUrl: "https://bench.example/hooks",
      webhookEvents: ["order.created"],
    });
    const [hook] = await b.db.db.execute<{ id: string }>(
      sql`select id from webhooks where installation_id = ${inst.installationId} limit 1`,
    );
    await b.db.db.execute(sql`
      insert into products (id, business_id, name, slug, price, created_at, updated_at)
      select 'prd_scale_' || g, ${business}, 'Product ' || g, 'product-scale-' || g, 500 + g % 4000, now() - (g || ' seconds')::interval, now()
      from generate_series(0, ${PRODUCTS - 1}::int) g`);
    const admin = await BrowserSession.signIn(b.env.publicUrl, dev.account.email, "bench-password");
    const results: {
      orders: number;
      figures: Record<string, { median: number; p95: number }>;
      exportMemoryMb: number;
      exportLiveMemoryMb: number;
      exportBytes: number;
      exportRowsPerQuery: number;
    }[] = [];
    for (const size of [1_000, ORDERS]) {
      await grow(b, business, { id: hook.id, installationId: inst.installationId, appId: inst.appId }, size);
      const m = await measure(b, {
        token: inst.token,
        appId: inst.appId,
        webhookId: hook.id,
        businessId: business,
        admin,
        size,
      });
      results.push({ orders: size, ...m });
      say(`${size.toLocaleString("en-US")} orders measured`);
    }
    const names = Object.keys(results[0].figures);
    table(
      `Fast at any size: median / p95 ms at ${results.map((r) => r.orders.toLocaleString("en-US")).join(" and ")} orders`,
      names.map((name) => ({
        figure: name,
        ...Object.fromEntries(
          results.map((r) => [
            `${r.orders.toLocaleString("en-US")} orders`,
            `${r.figures[name].median} / ${r.figures[name].p95}`,
          ]),
        ),
      })),
    );
    for (const r of results)
      say(
        `CSV export at ${r.orders}: ${r.exportBytes.toLocaleString("en-US")} bytes, ${r.exportRowsPerQuery} orders per query, process memory +${r.exportMemoryMb} MB resident at its peak, +${r.exportLiveMemoryMb} MB alive after a full collection`,
      );
    writeResult("scale", { samples: SAMPLES, results });
    if (process.argv.includes("--keep")) {
      // the grown shop stays, for EXPLAIN at scale: psql the URL, Ctrl-C when done
      say(`--keep: the database stays while this runs: ${b.dbUrl} (business ${business})`);
      await new Promise(() => {});
    }
  } finally {
    await b.close();
  }
}

runIfMain(import.meta.url, run);
