/**
 * B2e Flash sale, end to end (issue 16): 1,000 guest orders through POST /app-api/orders from 8
 * concurrent clients, all on ONE business (PICKUP, quantity 1, spread over its products), with one
 * webhook registration for order.created to a receiver on 127.0.0.1 that answers 200 at once.
 * Measured as a user sees it: orders/s (API answers), deliveries/s (receipts), p50/p99 from the
 * order's createdAt to its webhook's receipt.
 *
 * The same sale through the storefront (add to cart, checkout form, place the order) is measured
 * beside it, so that shoppers' figures are seen too.
 *
 * The floor, in the same run and alternating with the platform: graphile-worker alone on the same
 * cluster, 8 clients each committing `insert order` + `add_job` in one transaction, the job signing
 * and POSTing the same kind of envelope to the same kind of receiver.
 */
import http from "node:http";
import { createHmac, randomBytes } from "node:crypto";
import postgres from "postgres";
import { run as runWorker } from "graphile-worker";
import { startBench, developer, percentile, table, writeResult } from "./lib";
import { testInstallToken } from "./fixtures";
import { quietLogger } from "../db/migrate";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1000);
const CLIENTS = 8;
const WORKER_CONCURRENCY = 20;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

type Receiver = { url: string; receivedAt: Map<string, number>; latencies: number[]; duplicates: number; close(): void; wait(n: number): Promise<void> };

/** A webhook receiver that answers 200 at once and records when each order's delivery arrived. */
async function startReceiver(orderIdOf: (body: any) => string, createdAtOf: (body: any) => string): Promise<Receiver> {
  const receivedAt = new Map<string, number>();
  const latencies: number[] = [];
  let duplicates = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const at = Date.now();
      res.writeHead(200).end();
      const body = JSON.parse(Buffer.concat(chunks).toString());
      const id = orderIdOf(body);
      if (receivedAt.has(id)) return void duplicates++;
      receivedAt.set(id, at);
      latencies.push(at - Date.parse(createdAtOf(body)));
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`,
    receivedAt,
    latencies,
    get duplicates() {
      return duplicates;
    },
    close: () => server.close(),
    async wait(n) {
      const deadline = Date.now() + 300_000;
      while (receivedAt.size < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      if (receivedAt.size < n) throw new Error(`only ${receivedAt.size} of ${n} deliveries arrived`);
    },
  };
}

/** Runs `total` calls of `one` over `clients` concurrent loops; returns when the last answered. */
async function clients(total: number, count: number, one: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: count }, async () => {
      for (let i = next++; i < total; i = next++) await one(i);
    }),
  );
}

type Figures = { orders: number; "orders/s": number; "deliveries/s": number; "p50 order→receipt ms": number; "p99 order→receipt ms": number; duplicates: number };

function figures(started: number, lastOrder: number, r: Receiver): Figures {
  const lastReceipt = Math.max(...r.receivedAt.values());
  return {
    orders: r.receivedAt.size,
    "orders/s": Math.round(ORDERS / ((lastOrder - started) / 1000)),
    "deliveries/s": Math.round(ORDERS / ((lastReceipt - started) / 1000)),
    "p50 order→receipt ms": percentile(r.latencies, 50),
    "p99 order→receipt ms": percentile(r.latencies, 99),
    duplicates: r.duplicates,
  };
}

/** The floor: graphile-worker alone, insert + add_job per order, a job that signs and POSTs. */
async function floorRun(): Promise<Figures> {
  const b = await startBench();
  const receiver = await startReceiver((body) => body.data.orderId, (body) => body.data.createdAt);
  const sql = postgres(b.dbUrl, { max: CLIENTS, onnotice: () => {} });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const secret = `whsec_${randomBytes(24).toString("base64url")}`;
  try {
    await sql`create table floor_orders (id text primary key, business_id text not null, amount integer not null, created_at timestamptz not null)`;
    const runner = await runWorker({
      connectionString: b.dbUrl,
      concurrency: WORKER_CONCURRENCY,
      maxPoolSize: WORKER_CONCURRENCY + 2,
      noHandleSignals: true,
      pollInterval: 1000,
      logger: quietLogger,
      taskList: {
        deliver: async (payload) => {
          const body = JSON.stringify({ id: `dlv_${randomBytes(10).toString("hex")}`, event: "order.created", timestamp: new Date().toISOString(), webhookId: "wh_floor", businessId: "biz_floor", data: payload });
          const ts = Math.floor(Date.now() / 1000);
          const signature = createHmac("sha256", secret).update(`${ts}.${body}`).digest("hex");
          await new Promise<void>((resolve, reject) => {
            const req = http.request(receiver.url, { method: "POST", agent, headers: { "Content-Type": "application/json", "X-Webhook-Signature": `sha256=${signature}`, "X-Webhook-Timestamp": String(ts) } }, (res) => {
              res.resume();
              res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode}`))));
            });
            req.on("error", reject);
            req.end(body);
          });
        },
      },
    });
    const started = Date.now();
    let lastOrder = 0;
    await clients(ORDERS, CLIENTS, async (i) => {
      const id = `ord_${i}_${randomBytes(6).toString("hex")}`;
      const createdAt = new Date();
      await sql.begin(async (tx) => {
        await tx`insert into floor_orders (id, business_id, amount, created_at) values (${id}, 'biz_floor', 1250, ${createdAt})`;
        await tx`select graphile_worker.add_job('deliver', ${tx.json({ orderId: id, orderNumber: String(i + 1), amount: 12.5, deliveryFee: 0, deliveryMethod: "PICKUP", paymentMethod: "CASH", isGuest: true, createdAt: createdAt.toISOString() })}::json)`;
      });
      lastOrder = Date.now();
    });
    await receiver.wait(ORDERS);
    const result = figures(started, lastOrder, receiver);
    await runner.stop();
    return result;
  } finally {
    agent.destroy();
    receiver.close();
    await sql.end();
    await b.close();
  }
}

/** The platform: the real API, the real checkout, the real outbox, fan-out and delivery. */
type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** One shopper's browser: a cookie jar and the storefront's CSRF token, over a keep-alive agent. */
function shopper(base: string, agent: http.Agent) {
  const cookies = new Map<string, string>();
  let csrf = "";
  const send = (method: string, path: string, form?: Record<string, string>) =>
    new Promise<Answer>((resolve, reject) => {
      const body = form ? new URLSearchParams({ csrf, ...form }).toString() : undefined;
      const headers: Record<string, string> = { Cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") };
      if (body) headers["Content-Type"] = "application/x-www-form-urlencoded";
      const req = http.request(base + path, { method, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          for (const c of res.headers["set-cookie"] ?? []) {
            const [pair] = c.split(";");
            const eq = pair.indexOf("=");
            cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
          }
          const text = Buffer.concat(chunks).toString();
          csrf = /"csrf":"([^"]+)"/.exec(text)?.[1] ?? csrf;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text });
        });
      });
      req.on("error", reject);
      req.end(body);
    });
  return { send };
}

/**
 * The same sale through the storefront, as shoppers do it: add to cart, open the checkout form,
 * place the order (PICKUP, cash), 8 shoppers at once, each ordering again and again.
 */
export async function storefrontRun(): Promise<Figures & { "failed checkouts": number }> {
  const b = await startBench({ worker: true, workerConcurrency: WORKER_CONCURRENCY });
  const receiver = await startReceiver((body) => body.data.orderId, (body) => body.data.createdAt);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS * 2 });
  try {
    const dev = await developer(b);
    await testInstallToken(b, dev, ["read_orders"], { webhookUrl: receiver.url, webhookEvents: ["order.created"] });
    const products = (await b.db.sql<{ id: string }[]>`select id from products where business_id = ${dev.business.id} and status = 'ACTIVE' and is_available and stock is null order by id`).map((r) => r.id);
    const shop = `/s/${dev.business.slug}`;
    const shoppers = await Promise.all(Array.from({ length: CLIENTS }, async () => {
      const s = shopper(b.web.url, agent);
      await s.send("GET", shop);
      return s;
    }));
    let failed = 0;
    let next = 0;
    const started = Date.now();
    let lastOrder = 0;
    await Promise.all(shoppers.map(async (s) => {
      for (let i = next++; i < ORDERS; i = next++) {
        await s.send("POST", `${shop}/cart`, { intent: "add", productId: products[i % products.length], quantity: "1" });
        const form = await s.send("GET", `${shop}/checkout`);
        const checkoutKey = /name="checkoutKey" value="([^"]+)"/.exec(form.body)?.[1] ?? "";
        const placed = await s.send("POST", `${shop}/checkout`, { checkoutKey, name: `Shopper ${i}`, phone: "555 0100", deliveryMethod: "PICKUP", paymentMethod: "CASH" });
        if (placed.status !== 302 || !String(placed.headers.location).includes("/orders/")) failed++;
        lastOrder = Date.now();
      }
    }));
    await receiver.wait(ORDERS - failed);
    return { ...figures(started, lastOrder, receiver), "failed checkouts": failed };
  } finally {
    agent.destroy();
    receiver.close();
    await b.close();
  }
}

export async function platformRun(): Promise<Figures & { "API errors": number }> {
  const b = await startBench({ worker: true, workerConcurrency: WORKER_CONCURRENCY });
  const receiver = await startReceiver((body) => body.data.orderId, (body) => body.data.createdAt);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  try {
    const dev = await developer(b);
    const { token } = await testInstallToken(b, dev, ["write_orders", "read_orders", "read_products"], { webhookUrl: receiver.url, webhookEvents: ["order.created"] });
    const products = (await b.db.sql<{ id: string }[]>`select id from products where business_id = ${dev.business.id} and status = 'ACTIVE' and is_available and stock is null order by id`).map((r) => r.id);
    const post = (body: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(`${b.web.url}/app-api/orders`, { method: "POST", agent, headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" } }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        });
        req.on("error", reject);
        req.end(body);
      });
    let errors = 0;
    const started = Date.now();
    let lastOrder = 0;
    await clients(ORDERS, CLIENTS, async (i) => {
      const status = await post(JSON.stringify({ customer: { name: `Shopper ${i}`, phone: "555 0100" }, items: [{ productId: products[i % products.length], quantity: 1 }], deliveryMethod: "PICKUP", paymentMethod: "CASH" }));
      if (status !== 201) errors++;
      lastOrder = Date.now();
    });
    await receiver.wait(ORDERS - errors);
    return { ...figures(started, lastOrder, receiver), "API errors": errors };
  } finally {
    agent.destroy();
    receiver.close();
    await b.close();
  }
}

export async function run() {
  const rows: Record<string, unknown>[] = [];
  const floors: Figures[] = [];
  const platforms: Figures[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const floor = await floorRun();
    floors.push(floor);
    rows.push({ round, run: "floor: graphile-worker alone", ...floor });
    const platform = await platformRun();
    platforms.push(platform);
    rows.push({ round, run: "platform: API + webhook", ...platform });
    rows.push({ round, run: "platform: storefront checkout + webhook", ...(await storefrontRun()) });
  }
  const median = (xs: number[]) => percentile(xs, 50);
  const summary = {
    "platform orders/s": median(platforms.map((p) => p["orders/s"])),
    "platform deliveries/s": median(platforms.map((p) => p["deliveries/s"])),
    "floor deliveries/s": median(floors.map((f) => f["deliveries/s"])),
    "deliveries ratio": Math.round((median(platforms.map((p) => p["deliveries/s"])) / median(floors.map((f) => f["deliveries/s"]))) * 100) / 100,
    "platform p50 ms": median(platforms.map((p) => p["p50 order→receipt ms"])),
    "floor p50 ms": median(floors.map((f) => f["p50 order→receipt ms"])),
    "p50 ratio": Math.round((median(platforms.map((p) => p["p50 order→receipt ms"])) / Math.max(1, median(floors.map((f) => f["p50 order→receipt ms"])))) * 100) / 100,
  };
  table(`B2e Flash sale: ${ORDERS} orders, ${CLIENTS} clients, one business, order.created to one receiver`, rows);
  table("B2e summary (medians of the rounds)", [summary]);
  writeResult("b2e-flash-sale", { orders: ORDERS, clients: CLIENTS, workerConcurrency: WORKER_CONCURRENCY, rounds: rows, summary });
  return summary;
}

if (import.meta.url === `file://${process.argv[1]}`) run().then(() => import("./lib").then((l) => l.stopCluster())).then(() => process.exit(0));
