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
import type { IncomingMessage, ServerResponse } from "node:http";
import inspector from "node:inspector/promises";
import { platformFixture, startPeer } from "./b2e-flash-sale";
import { round2, stopCluster } from "./lib";
import { summarizeProfile, type CpuProfile } from "./cpuprofile-summary";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1000);
const CLIENTS = 8;

const peer = startPeer();
const { b, dev, products } = await platformFixture(peer);
const sale = (total: number, clients = CLIENTS) =>
  peer.call<{ started: number; lastOrder: number; failed: number }>({
    cmd: "storefront",
    base: b.env.storefrontUrl,
    shop: `/s/${dev.business.slug}`,
    products,
    total,
    clients,
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
  // One shopper at a time, so that requests do not overlap: the process's CPU time from each
  // request's arrival to its answer's end, by request, and a profile of each kind of request (the
  // samples inside its requests' windows: V8's profile clock and process.hrtime are both the
  // monotonic clock). The worker's deliveries and e-mails run in between too, so the requests' sum
  // is less than the whole; statements are counted while a request was the last to arrive.
  const stepOf = (url: string | undefined, method: string | undefined) =>
    `${method} ${(url ?? "")
      .replace(/^\/s\/[^/?]+/, "")
      .replace(/\?.*$/, "")
      .replace(/\/orders\/.*/, "/orders/:id")}`;
  const perStep = new Map<string, { n: number; us: number; windows: [number, number][] }>();
  let current = "";
  const statements = new Map<string, number>();
  const texts: string[] = [];
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const step = stepOf(req.url, req.method);
    current = step;
    const at = process.cpuUsage();
    const from = Number(process.hrtime.bigint() / 1000n);
    res.on("finish", () => {
      const d = process.cpuUsage(at);
      const s = perStep.get(step) ?? { n: 0, us: 0, windows: [] };
      s.n++;
      s.us += d.user + d.system;
      s.windows.push([from, Number(process.hrtime.bigint() / 1000n)]);
      perStep.set(step, s);
    });
  };
  b.web.server.prependListener("request", onRequest);
  (b.db.sql.options as { debug?: unknown }).debug = (_c: number, text: string) => {
    statements.set(current, (statements.get(current) ?? 0) + 1);
    if (texts.length < 40) texts.push(`${current}: ${text.replace(/\s+/g, " ").slice(0, 140)}`);
  };
  const N = 300;
  await session.post("Profiler.start");
  const before = process.cpuUsage();
  const one = await sale(N, 1);
  await peer.call({ cmd: "wait", n: 300 + ORDERS + N - run.failed - one.failed });
  const all = process.cpuUsage(before);
  const { profile: stepsProfile } = await session.post("Profiler.stop");
  b.web.server.removeListener("request", onRequest);
  (b.db.sql.options as { debug?: unknown }).debug = false;
  console.log("\nthe first statements, with the request that was current:\n" + texts.join("\n"));
  console.log(
    "statements per order while each request was current:",
    Object.fromEntries([...statements].map(([k, v]) => [k, round2(v / N)])),
  );
  console.log(
    `\nCPU by request, one shopper, ${N} orders (${round2((all.user + all.system) / 1000 / N)} ms an order in all)`,
  );
  for (const [step, s] of perStep)
    console.log(
      `${step.padEnd(24)} ${String(s.n).padStart(5)} requests ${round2(s.us / 1000 / s.n)} ms each, ${round2(s.us / 1000 / N)} ms an order`,
    );
  const p = stepsProfile as unknown as CpuProfile;
  for (const [step, s] of perStep) {
    if (s.n < N) continue;
    // each sample's time: startTime plus the deltas up to it
    const keep: number[] = [];
    const deltas: number[] = [];
    let t = p.startTime;
    let w = 0;
    const windows = s.windows.sort((a, c) => a[0] - c[0]);
    for (let i = 0; i < p.samples.length; i++) {
      t += p.timeDeltas[i];
      while (w < windows.length && windows[w][1] < t) w++;
      if (w < windows.length && windows[w][0] <= t) {
        keep.push(p.samples[i]);
        deltas.push(p.timeDeltas[i + 1] ?? 0);
      }
    }
    // summarizeProfile reads deltas[i + 1] as sample i's time
    const part = { ...p, samples: keep, timeDeltas: [0, ...deltas] };
    fs.writeFileSync(
      `.data/prof/checkout-${step.replace(/[^A-Za-z]+/g, "-")}.txt`,
      summarizeProfile(part, { top: 60, divisor: s.n }),
    );
    console.log(`${step}: .data/prof/checkout-${step.replace(/[^A-Za-z]+/g, "-")}.txt`);
  }
}

peer.close();
await b.close();
await stopCluster();
process.exit(0);
