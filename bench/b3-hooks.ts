/**
 * B3 Hooks: a checkout with five apps whose order.calculate_discounts hooks each answer after
 * 50 ms. Total checkout time (POST /app-api/orders) against the slowest hook (the floor of parallel
 * calls) and against the sum (what sequential calls would cost).
 *
 * The apps' hook server runs in a process of its own, as apps do. The floor is measured in the same
 * run: a bare node:http client calling the five hooks in parallel (the slowest of the five, p50).
 * On this machine a 50 ms timer answered over loopback takes about 52-54 ms; the nominal 50 ms is
 * shown too.
 */
import http from "node:http";
import { spawn } from "node:child_process";
import { sql } from "drizzle-orm";
import { startBench, developer, percentile, table, writeResult, runIfMain } from "./lib";
import { testInstallToken } from "./fixtures";

const HOOK_MS = 50;
const APPS = 5;
/** Every hook answers a discount of 10 minor units (the newest API version's money) HOOK_MS after the request arrived. */
const HOOK_APP = `
  const ms = Number(process.argv[1]);
  const server = require("node:http").createServer((req, res) => {
    req.resume();
    req.on("end", () => setTimeout(() => res.writeHead(200, { "Content-Type": "application/json" }).end('{"discount":{"amount":10,"currency":"USD"}}'), ms));
  });
  server.keepAliveTimeout = 60000;
  server.listen(0, "127.0.0.1", () => console.log(server.address().port));`;

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** One POST with a keep-alive connection; the answer's status and body. */
function post(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: "POST",
        agent,
        headers: { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)), ...headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const ms = (started: number) => performance.now() - started;
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

export async function run(samples = Number(process.env.BENCH_SAMPLES ?? 60)) {
  const b = await startBench();
  const hookApp = spawn(process.execPath, ["-e", HOOK_APP, String(HOOK_MS)], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      hookApp.stdout!.once("data", (d) => resolve(Number(String(d).trim())));
      hookApp.once("exit", (code) => reject(new Error(`hook app exited ${code}`)));
    });
    const base = `http://127.0.0.1:${port}`;
    const dev = await developer(b);
    let token = "";
    for (let i = 0; i < APPS; i++) {
      const installed = await testInstallToken(b, dev, ["write_orders", "write_checkout"], {
        webhookUrl: `${base}/app${i}`,
        manifest: { hooks: [{ hookPoint: "order.calculate_discounts", url: "/discounts", timeout: 2000 }] },
      });
      token = installed.token;
    }
    const [product] = await b.db.db.execute<{ id: string }>(
      sql`select id from products where business_id = ${dev.business.id} and stock is null and is_available limit 1`,
    );
    const body = JSON.stringify({
      customer: { name: "Bench", phone: "555" },
      items: [{ productId: product.id, quantity: 1 }],
      deliveryMethod: "PICKUP",
      paymentMethod: "CASH",
    });
    const checkouts: number[] = [];
    const floors: number[] = [];
    // alternate checkout and floor so that both see the same machine; the first five of each warm up
    for (let i = 0; i < samples + 5; i++) {
      let started = performance.now();
      const res = await post(`${b.web.url}/app-api/orders`, body, { Authorization: `Bearer ${token}` });
      const took = ms(started);
      const json = JSON.parse(res.text);
      if (res.status !== 201 || json.discount?.amount !== APPS * 10)
        throw new Error(`checkout ${res.status} ${res.text}`);
      started = performance.now();
      await Promise.all(
        Array.from({ length: APPS }, (_, k) =>
          post(`${base}/app${k}/discounts`, '{"hookPoint":"order.calculate_discounts"}'),
        ),
      );
      const floor = ms(started);
      if (i >= 5) {
        checkouts.push(took);
        floors.push(floor);
      }
    }
    const p50 = percentile(checkouts, 50);
    const floor = percentile(floors, 50);
    const row = {
      apps: APPS,
      "hook ms": HOOK_MS,
      "checkout p50 ms": round(p50),
      "checkout p99 ms": round(percentile(checkouts, 99)),
      "slowest hook p50 ms (bare client)": round(floor),
      "sum of hooks ms": HOOK_MS * APPS,
      "p50 / slowest": round(p50 / floor, 2),
      "p50 / 50 ms": round(p50 / HOOK_MS, 2),
      "p50 / sum": round(p50 / (HOOK_MS * APPS), 2),
    };
    table("B3 Hooks: checkout with five 50 ms hooks", [row]);
    writeResult("b3-hooks", { samples, ...row });
    return row;
  } finally {
    hookApp.kill();
    await b.close();
  }
}

runIfMain(import.meta.url, run);
