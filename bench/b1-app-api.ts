/**
 * B1 App API: GET /app-api/products?limit=50 through the whole platform (token lookup, scope, rate
 * limit raised, query, JSON) against a floor written here: a bare node:http server running the
 * same SQL with `postgres` and writing the same JSON. Requests per second and p50/p99 at 1, 16 and
 * 64 connections; the ratio platform/floor.
 *
 * The floor runs the platform's statements, not look-alikes: the token lookup that also counts the
 * call in its rate-limit window (`CALLER_COUNTED_SQL`, the very text the platform sends), then the
 * page with its total (the statement `pageOf` builds). A second, lighter floor runs only the page
 * and the total (what the first version of this benchmark compared against); its ratio is shown
 * too, so the figure can be read both ways.
 */
import http from "node:http";
import { listenLocally } from "../app/platform/testing/listen";
import postgres from "postgres";
import { startBench, developer, load, reportRows, runIfMain, round2 } from "./lib";
import { testInstallToken } from "./fixtures";
import { CALLER_COUNTED_SQL } from "../app/platform/installs/installs.server";
import { selectColumns } from "../db/sql";
import { products } from "../db/schema";
import { sha256 } from "../app/platform/core/crypto.server";

const PAGE_SQL = `
  select ${selectColumns(products, "r")}, (select sum(n) from business_counts where business_id = $1 and entity = 'products') as "total"
  from products r where r.business_id = $1
  order by r.created_at desc, r.id desc limit $2 offset $3`;

type Row = Record<string, unknown>;
const serialize = (p: Row) => ({
  id: p["r.id"],
  name: p["r.name"],
  description: p["r.description"],
  price: (p["r.price"] as number) / 100,
  category: p["r.category"],
  isAvailable: p["r.isAvailable"],
  imageUrl: p["r.imageUrl"],
  slug: p["r.slug"],
  status: p["r.status"],
  stock: p["r.stock"],
  createdAt: (p["r.createdAt"] as Date).toISOString(),
  updatedAt: (p["r.updatedAt"] as Date).toISOString(),
});

const listen = async (server: http.Server) => `${await listenLocally(server)}/`;

export async function run(durationSec = Number(process.env.BENCH_SECONDS ?? 8)) {
  const b = await startBench();
  try {
    const dev = await developer(b);
    const { token } = await testInstallToken(b, dev, ["read_products"]);
    const sql = postgres(b.dbUrl, { max: 20, onnotice: () => {} });
    const businessId = dev.business.id;
    const WINDOW_MS = 60_000;

    // floor 1: the platform's SQL — token lookup with the rate-limit count, then the page with its total
    const sameSql = http.createServer(async (req, res) => {
      const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "";
      const t = Date.now();
      const [caller] = await sql.unsafe(
        CALLER_COUNTED_SQL,
        [sha256(bearer), new Date(t - (t % WINDOW_MS)).toISOString()],
        { prepare: true },
      );
      if (!caller) return void res.writeHead(401).end();
      const rows = await sql.unsafe(PAGE_SQL, [caller["b.id"] as string, 50, 0], { prepare: true });
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ data: rows.map(serialize), total: Number(rows[0]?.total ?? 0), page: 1, limit: 50 }));
    });
    // floor 2: only the page and the total, as the first version of this benchmark did
    const readOnly = http.createServer(async (_req, res) => {
      const [rows, [count]] = await Promise.all([
        sql`select * from products where business_id = ${businessId} order by created_at desc, id desc limit 50 offset 0`,
        sql`select sum(n)::int as n from business_counts where business_id = ${businessId} and entity = 'products'`,
      ]);
      const data = rows.map((p) => ({
        id: p.id,
        name: p.name,
        description: p.description,
        price: p.price / 100,
        category: p.category,
        isAvailable: p.is_available,
        imageUrl: p.image_url,
        slug: p.slug,
        status: p.status,
        stock: p.stock,
        createdAt: p.created_at.toISOString(),
        updatedAt: p.updated_at.toISOString(),
      }));
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ data, total: count?.n ?? 0, page: 1, limit: 50 }));
    });
    const sameUrl = await listen(sameSql);
    const readUrl = await listen(readOnly);
    // answered in 2026-11-21 (money as major-unit numbers, as the floors write it): the version
    // machinery's longest path, the newest answer taken down by the declared change (issue 32)
    const headers = { Authorization: `Bearer ${token}`, "Api-Version": "2026-11-21" };
    // the floors answer what the platform answers
    const [mine, theirs] = await Promise.all([
      fetch(`${b.web.url}/app-api/products?limit=50`, { headers }).then((r) => r.json()),
      fetch(sameUrl, { headers }).then((r) => r.json()),
    ]);
    if (JSON.stringify(mine) !== JSON.stringify(theirs))
      throw new Error("the same-SQL floor does not answer what the platform answers");

    const rows: Record<string, unknown>[] = [];
    for (const connections of [1, 16, 64]) {
      const platform = await load(`${b.web.url}/app-api/products?limit=50`, { connections, durationSec, headers });
      const floor = await load(sameUrl, { connections, durationSec, headers });
      const light = await load(readUrl, { connections, durationSec });
      for (const r of [platform, floor, light])
        if (r.non2xx || r.errors)
          throw new Error(`${r.non2xx} non-2xx, ${r.errors} errors at ${connections} connections`);
      rows.push({
        connections,
        "platform rps": platform.rps,
        "floor rps (same SQL)": floor.rps,
        ratio: round2(platform.rps / floor.rps),
        "platform p50": platform.p50,
        "platform p99": platform.p99,
        "floor p50": floor.p50,
        "floor p99": floor.p99,
        "read-only floor rps": light.rps,
        "ratio to read-only floor": round2(platform.rps / light.rps),
      });
    }
    reportRows("B1 App API: GET /app-api/products?limit=50", "b1-app-api", durationSec, rows);
    sameSql.close();
    readOnly.close();
    await sql.end();
    return rows;
  } finally {
    await b.close();
  }
}

runIfMain(import.meta.url, run);
