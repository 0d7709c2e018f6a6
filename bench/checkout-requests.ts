/**
 * Measuring aid (not part of `npm run bench`): the server's CPU time per request of each step of
 * the storefront checkout, one step at a time under load (8 connections, SECONDS each, 4 s by
 * default), the load made by a child process so that only the platform's CPU is counted:
 *   - POST /cart (add a product; the same cookie every time, so the cart stays one line),
 *   - GET /checkout (the checkout page, a document),
 *   - GET /checkout/quote (the page's total for pickup),
 *   - POST /checkout (place the order; no checkout key, so that every request places one; its
 *     figure includes the order's webhook and e-mails, which the worker sends meanwhile).
 *   npm run bench:profile -- bench/checkout-requests.ts
 * It depends only on bench/lib.ts and bench/fixtures.ts, so the same file measures an older commit.
 */
import fs from "node:fs";
import inspector from "node:inspector/promises";
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startBench, developer, load, round2, stopCluster, type LoadResult } from "./lib";
import { testInstallToken } from "./fixtures";

type LoadArgs = Parameters<typeof load>[1] & { url: string };
/** A step's request: the load's settings without its connections and duration. */
type StepArgs = Omit<LoadArgs, "connections" | "durationSec">;

if (process.argv[2] === "--load") {
  // the child: one load, its result on stdout
  const args = JSON.parse(process.argv[3]) as LoadArgs;
  process.stdout.write(JSON.stringify(await load(args.url, args)));
  process.exit(0);
}

function childLoad(args: LoadArgs): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ["--load", JSON.stringify(args)], {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "pipe", "inherit", "ipc"],
    });
    let out = "";
    child.stdout!.on("data", (c: Buffer) => (out += c));
    child.on("exit", (code) =>
      code === 0 ? resolve(JSON.parse(out) as LoadResult) : reject(new Error(`load exited ${code}`)),
    );
  });
}

const b = await startBench({ worker: true });
const dev = await developer(b);
await testInstallToken(b, dev, ["read_orders"]);
const [product] = await b.db.sql<
  { id: string }[]
>`select id from products where business_id = ${dev.business.id} and status = 'ACTIVE' and is_available and stock is null order by id limit 1`;
const base = b.env.storefrontUrl;
const shop = `${base}/s/${dev.business.slug}`;
const origin = new URL(base).origin;

// a shopper with a cart of one product: their cookies and the page's CSRF token
const added = await fetch(`${shop}/cart`, {
  method: "POST",
  redirect: "manual",
  headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin, "Sec-Fetch-Site": "same-origin" },
  body: new URLSearchParams({ intent: "add", productId: product.id, quantity: "1" }),
});
const cookie = added.headers
  .getSetCookie()
  .map((c) => c.split(";")[0])
  .join("; ");
const page = await (await fetch(`${shop}/checkout`, { headers: { Cookie: cookie } })).text();
const csrf = /"csrf":"([^"]+)"/.exec(page)?.[1];
if (!csrf) throw new Error("no CSRF token on the checkout page");
const quote = (await (
  await fetch(`${shop}/checkout/quote?deliveryMethod=PICKUP`, { headers: { Cookie: cookie } })
).json()) as { amount: number };

if (process.env.STATEMENTS === "1") {
  // the statements of one checkout page, as postgres.js sends them
  const texts: string[] = [];
  (b.db.sql.options as { debug?: unknown }).debug = (_c: number, text: string) =>
    texts.push(text.replace(/\s+/g, " ").slice(0, 200));
  await (await fetch(`${shop}/checkout`, { headers: { Cookie: cookie } })).text();
  (b.db.sql.options as { debug?: unknown }).debug = false;
  console.log(`GET /checkout: ${texts.length} statements\n${texts.join("\n")}`);
}

const form = { "Content-Type": "application/x-www-form-urlencoded", Origin: origin, "Sec-Fetch-Site": "same-origin" };
const steps: { name: string; args: StepArgs }[] = [
  {
    name: "POST /cart",
    args: {
      url: `${shop}/cart`,
      method: "POST",
      headers: { ...form, Cookie: cookie },
      body: new URLSearchParams({ csrf, intent: "add", productId: product.id, quantity: "1" }).toString(),
    },
  },
  { name: "GET /checkout", args: { url: `${shop}/checkout`, headers: { Cookie: cookie } } },
  {
    name: "GET /checkout/quote",
    args: { url: `${shop}/checkout/quote?deliveryMethod=PICKUP`, headers: { Cookie: cookie } },
  },
  {
    name: "POST /checkout",
    args: {
      url: `${shop}/checkout`,
      method: "POST",
      headers: { ...form, Cookie: cookie },
      body: new URLSearchParams({
        csrf,
        quotedAmount: String(quote.amount),
        name: "Shopper",
        phone: "555 0100",
        deliveryMethod: "PICKUP",
        paymentMethod: "CASH",
      }).toString(),
    },
  },
];
const seconds = Number(process.env.SECONDS ?? 4);
// a warm-up of each, then the measured loads; the orders' warm-up is the setup's own (its webhooks
// and e-mails would be sent while the other steps are measured)
for (const step of steps.slice(0, 3)) await childLoad({ ...step.args, connections: 8, durationSec: 1 });
const rows: Record<string, unknown>[] = [];
// PROFILE="GET /checkout": that step's load under the CPU profiler, written to .data/prof/checkout-step.cpuprofile
const session = new inspector.Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 500 });
for (const step of steps) {
  const profiled = process.env.PROFILE === step.name;
  if (profiled) await session.post("Profiler.start");
  const cpu = process.cpuUsage();
  const r = await childLoad({ ...step.args, connections: 8, durationSec: seconds });
  const used = process.cpuUsage(cpu);
  if (profiled) {
    const { profile } = await session.post("Profiler.stop");
    fs.mkdirSync(".data/prof", { recursive: true });
    fs.writeFileSync(".data/prof/checkout-step.cpuprofile", JSON.stringify(profile));
    console.log(`${step.name}: ${r.requests} requests profiled, .data/prof/checkout-step.cpuprofile`);
  }
  rows.push({
    step: step.name,
    "req/s": r.rps,
    "CPU ms/request": round2((used.user + used.system) / 1000 / Math.max(1, r.requests)),
    p50: r.p50,
    "not 2xx/3xx": r.errors,
    requests: r.requests,
  });
}
console.table(rows);
console.log("CPU ms an order (the four steps):", round2(rows.reduce((s, r) => s + (r["CPU ms/request"] as number), 0)));
await b.close();
await stopCluster();
process.exit(0);
