/**
 * B6 Marketplace (issue 20): 10,000 approved apps and 1,000,000 reviews (one per business and
 * app, through 1,000,000 production installations), then the first page of a category sorted by
 * rating: the query alone (50 cards, with the category's total) and the whole marketplace page
 * over HTTP. Target: under 20 ms p50.
 */
import { sql } from "drizzle-orm";
import { startBench, developer, percentile, table, time, writeResult, type Bench, round2 } from "./lib";
import { listMarketplaceCards } from "../app/platform/apps/marketplace.server";
import { CATEGORIES } from "../app/platform/shapes/app-catalog";

const APPS = 10_000;
const REVIEWS = 1_000_000;
const BUSINESSES = REVIEWS / APPS; // each business reviews every app: (app, business) unique

async function load(b: Bench, developerId: string) {
  const db = b.db.db;
  const cats = sql.raw(`array[${CATEGORIES.map((c) => `'${c}'`).join(",")}]`);
  await db.execute(sql`
    insert into apps (id, developer_id, client_id, client_secret_hash, name, slug, description, category, scopes, approved_scopes, redirect_url, status, published_at, created_at, updated_at)
    select 'app_b6_' || g, ${developerId}, 'cid_b6_' || g, 'x', 'Bench app ' || g, 'bench-app-' || g, 'An app of the marketplace benchmark.',
           (${cats})[1 + g % ${CATEGORIES.length}], '{read_products}', '{read_products}', 'https://bench.example/cb', 'APPROVED',
           now() - (g || ' minutes')::interval, now(), now()
    from generate_series(0, ${APPS - 1}::int) g`);
  await db.execute(sql`
    insert into businesses (id, name, slug, created_at, updated_at)
    select 'biz_b6_' || g, 'Bench shop ' || g, 'bench-shop-' || g, now(), now() from generate_series(0, ${BUSINESSES - 1}::int) g`);
  // bulk load: the per-row triggers are switched off and the figures set once afterwards, from the rows
  await db.execute(sql`alter table installations disable trigger installations_aggregate`);
  await db.execute(sql`alter table app_reviews disable trigger app_reviews_aggregate`);
  const t1 = await time(() =>
    db.execute(sql`
      insert into installations (id, app_id, business_id, scopes, webhook_secret_enc, installed_at, status)
      select 'inst_b6_' || g, 'app_b6_' || (g % ${APPS}), 'biz_b6_' || (g / ${APPS}), '{read_products}', 'x', now() - interval '30 days', 'ACTIVE'
      from generate_series(0, ${REVIEWS - 1}::int) g`),
  );
  const t2 = await time(() =>
    db.execute(sql`
      insert into app_reviews (id, app_id, business_id, installation_id, rating, body, created_at, updated_at)
      select 'rvw_b6_' || g, 'app_b6_' || (g % ${APPS}), 'biz_b6_' || (g / ${APPS}), 'inst_b6_' || g,
             greatest(1, least(5, 1 + (g % ${APPS}) % 5 + (g::bigint * 7919) % 3 - 1)), 'Bench review ' || g, now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval
      from generate_series(0, ${REVIEWS - 1}::int) g`),
  );
  await db.execute(sql`alter table installations enable trigger installations_aggregate`);
  await db.execute(sql`alter table app_reviews enable trigger app_reviews_aggregate`);
  const t3 = await time(() =>
    db.execute(sql`
      update apps set rating_sum = s.sum, rating_count = s.n, rating_avg = round(s.sum::numeric / s.n, 2), active_installs = s.n
      from (select app_id, sum(rating) as sum, count(*) as n from app_reviews group by app_id) s where s.app_id = apps.id`),
  );
  await db.execute(sql`analyze apps`);
  await db.execute(sql`analyze app_reviews`);
  await db.execute(sql`analyze installations`);
  console.log(
    `loaded: installations ${Math.round(t1.ms)} ms, reviews ${Math.round(t2.ms)} ms, figures ${Math.round(t3.ms)} ms`,
  );
}

async function sample(fn: () => Promise<unknown>, n = 60) {
  const times: number[] = [];
  for (let i = 0; i < n + 5; i++) {
    const started = performance.now();
    await fn();
    if (i >= 5) times.push(performance.now() - started);
  }
  return { p50: round2(percentile(times, 50)), p99: round2(percentile(times, 99)) };
}

export async function run() {
  const b = await startBench();
  try {
    const dev = await developer(b);
    await load(b, dev.account.id);
    const category = "marketing";
    const first = await listMarketplaceCards(b.db.db, { category, sort: "rating", limit: 50 });
    if (first.rows.length !== 50) throw new Error(`expected 50 cards, got ${first.rows.length}`);
    const query = await sample(() => listMarketplaceCards(b.db.db, { category, sort: "rating", limit: 50 }));
    const popular = await sample(() => listMarketplaceCards(b.db.db, { category, sort: "popular", limit: 50 }));
    const page = await sample(async () => {
      const res = await fetch(`${b.web.url}/marketplace?category=${category}&sort=rating`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`marketplace page: ${res.status}`);
    });
    const detail = await sample(async () => {
      const res = await fetch(`${b.web.url}/marketplace/bench-app-1`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`detail page: ${res.status}`);
    });
    const rows = [
      {
        what: "first page of a category by rating (50 cards + total), query",
        "p50 ms": query.p50,
        "p99 ms": query.p99,
      },
      { what: "first page of a category by popularity, query", "p50 ms": popular.p50, "p99 ms": popular.p99 },
      { what: "GET /marketplace?category=…&sort=rating (48 cards, rendered)", "p50 ms": page.p50, "p99 ms": page.p99 },
      {
        what: "GET /marketplace/<slug> (100 reviews: figures, star counts, first 10)",
        "p50 ms": detail.p50,
        "p99 ms": detail.p99,
      },
    ];
    table(
      `B6 Marketplace at ${APPS.toLocaleString("en-US")} apps and ${REVIEWS.toLocaleString("en-US")} reviews`,
      rows,
    );
    writeResult("b6-marketplace", {
      apps: APPS,
      reviews: REVIEWS,
      rows,
      target: "query p50 < 20 ms",
      met: query.p50 < 20,
    });
  } finally {
    await b.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { stopCluster } = await import("./lib");
  await run();
  await stopCluster();
}
