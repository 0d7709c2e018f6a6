/**
 * B1 App API: GET /app-api/products?limit=50 through the whole platform (token lookup, scope, rate
 * limit raised, query, JSON) against a floor written here: a bare node:http server running the
 * same SQL with `postgres`. Requests per second and p50/p99 at 1, 16 and 64 connections.
 */
import http from "node:http";
import postgres from "postgres";
import { startBench, developer, load, table, writeResult } from "./lib";
import { testInstallToken } from "./fixtures";

export async function run(durationSec = Number(process.env.BENCH_SECONDS ?? 8)) {
  const b = await startBench();
  try {
    const dev = await developer(b);
    const { token } = await testInstallToken(b, dev, ["read_products"]);
    // the floor: the same two queries (page and total) and the same JSON, nothing else
    const sql = postgres(b.dbUrl, { max: 20, onnotice: () => {} });
    const businessId = dev.business.id;
    const floor = http.createServer(async (_req, res) => {
      const [rows, [count]] = await Promise.all([
        sql`select * from products where business_id = ${businessId} order by created_at desc, id desc limit 50 offset 0`,
        sql`select n from business_counts where business_id = ${businessId} and entity = 'products'`,
      ]);
      const data = rows.map((p) => ({ id: p.id, name: p.name, description: p.description, price: p.price / 100, category: p.category, isAvailable: p.is_available, imageUrl: p.image_url, slug: p.slug, status: p.status, stock: p.stock, createdAt: p.created_at.toISOString(), updatedAt: p.updated_at.toISOString() }));
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ data, total: count?.n ?? 0, page: 1, limit: 50 }));
    });
    await new Promise<void>((r) => floor.listen(0, "127.0.0.1", () => r()));
    const floorUrl = `http://127.0.0.1:${(floor.address() as { port: number }).port}/`;
    const rows: Record<string, unknown>[] = [];
    for (const connections of [1, 16, 64]) {
      const platform = await load(`${b.web.url}/app-api/products?limit=50`, { connections, durationSec, headers: { Authorization: `Bearer ${token}` } });
      const bare = await load(floorUrl, { connections, durationSec });
      if (platform.non2xx || platform.errors) throw new Error(`platform answered ${platform.non2xx} non-2xx, ${platform.errors} errors`);
      rows.push({ connections, "platform rps": platform.rps, "floor rps": bare.rps, ratio: Math.round((platform.rps / bare.rps) * 100) / 100, "platform p50": platform.p50, "platform p99": platform.p99, "floor p50": bare.p50, "floor p99": bare.p99 });
    }
    table("B1 App API: GET /app-api/products?limit=50", rows);
    writeResult("b1-app-api", { durationSec, rows });
    floor.close();
    await sql.end();
    return rows;
  } finally {
    await b.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) run().then(() => import("./lib").then((l) => l.stopCluster())).then(() => process.exit(0));
