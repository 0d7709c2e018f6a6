/**
 * B3 Hooks: a checkout with five apps whose order.calculate_discounts hooks each answer after
 * 50 ms. Total checkout time (POST /app-api/orders) against the slowest hook (the floor of parallel
 * calls) and against the sum (what sequential calls would cost).
 */
import http from "node:http";
import { sql } from "drizzle-orm";
import { startBench, developer, percentile, table, writeResult } from "./lib";
import { testInstallToken } from "./fixtures";

const HOOK_MS = 50;
const APPS = 5;

export async function run(samples = Number(process.env.BENCH_SAMPLES ?? 40)) {
  const b = await startBench();
  try {
    const hookServer = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => setTimeout(() => res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ discount: 10 })), HOOK_MS));
    });
    await new Promise<void>((r) => hookServer.listen(0, "127.0.0.1", () => r()));
    const base = `http://127.0.0.1:${(hookServer.address() as { port: number }).port}`;
    const dev = await developer(b);
    let token = "";
    for (let i = 0; i < APPS; i++) {
      const installed = await testInstallToken(b, dev, ["write_orders", "write_checkout"], { webhookUrl: `${base}/app${i}`, manifest: { hooks: [{ hookPoint: "order.calculate_discounts", url: "/discounts", timeout: 2000 }] } });
      token = installed.token;
    }
    const [product] = await b.db.db.execute<{ id: string }>(sql`select id from products where business_id = ${dev.business.id} and stock is null and is_available limit 1`);
    const body = JSON.stringify({ customer: { name: "Bench", phone: "555" }, items: [{ productId: product.id, quantity: 1 }], deliveryMethod: "PICKUP", paymentMethod: "CASH" });
    const times: number[] = [];
    for (let i = 0; i < samples + 5; i++) {
      const started = performance.now();
      const res = await fetch(`${b.web.url}/app-api/orders`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body });
      const json = await res.json();
      if (res.status !== 201 || json.discount !== (APPS * 10) / 100) throw new Error(`checkout ${res.status} ${JSON.stringify(json)}`);
      if (i >= 5) times.push(performance.now() - started);
    }
    const p50 = Math.round(percentile(times, 50) * 10) / 10;
    const row = { apps: APPS, "hook ms": HOOK_MS, "checkout p50 ms": p50, "checkout p99 ms": Math.round(percentile(times, 99) * 10) / 10, "slowest hook ms": HOOK_MS, "sum of hooks ms": HOOK_MS * APPS, "p50 / slowest": Math.round((p50 / HOOK_MS) * 100) / 100, "p50 / sum": Math.round((p50 / (HOOK_MS * APPS)) * 100) / 100 };
    table("B3 Hooks: checkout with five 50 ms hooks", [row]);
    writeResult("b3-hooks", row);
    hookServer.close();
    return row;
  } finally {
    await b.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) run().then(() => import("./lib").then((l) => l.stopCluster())).then(() => process.exit(0));
