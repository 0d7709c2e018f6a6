/**
 * Profiling aid (not part of `npm run bench`): B2e's storefront checkout (add to cart, the checkout
 * page, its quote, place the order; 8 shoppers on one shop, bench/b2e-peer.ts `storefront`) under
 * the CPU profiler. The fixture is set up and a warm-up sale of 300 orders runs first, unprofiled;
 * then only the measured sale (BENCH_ORDERS, 1,000) is profiled and written to
 * .data/prof/checkout.cpuprofile, with a summary by package and function per order.
 *   npm run bench:profile -- bench/profile-checkout.ts
 * Also prints the process's CPU time per order of the measured sale, and (CHECKOUT_STEPS=1) the CPU
 * time of each of the shopper's requests, measured by a sale that stops after each step in turn.
 */
import fs from "node:fs";
import inspector from "node:inspector/promises";
import { platformFixture, startPeer } from "./b2e-flash-sale";
import { round2, stopCluster } from "./lib";
import { summarizeProfile, type CpuProfile } from "./cpuprofile-summary";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1000);
const CLIENTS = 8;

const peer = startPeer();
const { b, dev, products } = await platformFixture(peer);
const sale = (total: number) =>
  peer.call<{ started: number; lastOrder: number; failed: number }>({
    cmd: "storefront",
    base: b.env.storefrontUrl,
    shop: `/s/${dev.business.slug}`,
    products,
    total,
    clients: CLIENTS,
  });
await sale(300); // warm-up (JIT), not profiled
await peer.call({ cmd: "wait", n: 300 });

const session = new inspector.Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 200 });
await session.post("Profiler.start");
const cpu = process.cpuUsage();
const run = await sale(ORDERS);
await peer.call({ cmd: "wait", n: 300 + ORDERS - run.failed });
const used = process.cpuUsage(cpu);
const { profile } = await session.post("Profiler.stop");
fs.mkdirSync(".data/prof", { recursive: true });
fs.writeFileSync(".data/prof/checkout.cpuprofile", JSON.stringify(profile));

console.log({
  orders: ORDERS,
  failed: run.failed,
  "orders/s": Math.round(ORDERS / ((run.lastOrder - run.started) / 1000)),
  "CPU ms/order (profiled)": round2((used.user + used.system) / 1000 / ORDERS),
});
console.log(summarizeProfile(profile as unknown as CpuProfile, { top: 40, divisor: ORDERS }));

if (process.env.CHECKOUT_STEPS === "1") {
  // one shopper at a time, so that requests do not overlap: the process's CPU time from each
  // request's arrival to its answer's end, by request (the worker's deliveries and e-mails run
  // in between too, so the requests' sum is less than the whole)
  const perStep = new Map<string, { n: number; us: number }>();
  const onRequest = (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => {
    const at = process.cpuUsage();
    const step = `${req.method} ${(req.url ?? "").replace(/^\/s\/[^/?]+/, "").replace(/\?.*$/, "").replace(/\/orders\/.*/, "/orders/:id")}`;
    res.on("finish", () => {
      const d = process.cpuUsage(at);
      const s = perStep.get(step) ?? { n: 0, us: 0 };
      s.n++;
      s.us += d.user + d.system;
      perStep.set(step, s);
    });
  };
  b.web.server.prependListener("request", onRequest);
  // the statements each request sends (postgres.js's debug hook; the first 3 requests' texts shown)
  let current = "";
  const statements = new Map<string, number>();
  const texts: string[] = [];
  (b.db.sql.options as { debug?: unknown }).debug = (_c: number, text: string) => {
    statements.set(current, (statements.get(current) ?? 0) + 1);
    if (texts.length < 60) texts.push(`${current}: ${text.replace(/\s+/g, " ").slice(0, 160)}`);
  };
  b.web.server.prependListener("request", (req: import("node:http").IncomingMessage) => {
    current = `${req.method} ${(req.url ?? "").replace(/^\/s\/[^/?]+/, "").replace(/\?.*$/, "")}`;
  });
  const N = 300;
  const before = process.cpuUsage();
  const one = await peer.call<{ started: number; lastOrder: number; failed: number }>({
    cmd: "storefront",
    base: b.env.storefrontUrl,
    shop: `/s/${dev.business.slug}`,
    products,
    total: N,
    clients: 1,
  });
  await peer.call({ cmd: "wait", n: 300 + ORDERS + N - run.failed - one.failed });
  const all = process.cpuUsage(before);
  b.web.server.removeListener("request", onRequest);
  console.log(texts.join("\n"));
  console.log("statements per order while each request was current:", Object.fromEntries([...statements].map(([k, v]) => [k, round2(v / N)])));
  console.log(`\nCPU by request, one shopper, ${N} orders (${round2((all.user + all.system) / 1000 / N)} ms an order in all)`);
  for (const [step, s] of perStep)
    console.log(`${step.padEnd(24)} ${String(s.n).padStart(5)} requests ${round2(s.us / 1000 / s.n)} ms each, ${round2(s.us / 1000 / N)} ms an order`);
}

peer.close();
await b.close();
await stopCluster();
process.exit(0);
