/** npm run bench: every benchmark, one after the other, each writing bench/results/<name>.json. */
// the patch of postgres.js's reconnect (docs/reliability.md) before anything loads the driver
import "../db/postgres-fix";
const { stopCluster } = await import("./lib");

const benches: [string, () => Promise<unknown>][] = [
  ["B1 App API", () => import("./b1-app-api").then((m) => m.run())],
  ["B2 Webhooks", () => import("./b2-webhooks").then((m) => m.run())],
  ["B2e Flash sale", () => import("./b2e-flash-sale").then((m) => m.run())],
  ["B3 Hooks", () => import("./b3-hooks").then((m) => m.run())],
  ["B4 Storefront", () => import("./b4-storefront").then((m) => m.run())],
  ["B4c Storefront at scale", () => import("./b4c-storefront-cache").then((m) => m.run())],
  ["B5 Scale", () => import("./b5-scale").then((m) => m.run())],
  ["B6 Marketplace", () => import("./b6-marketplace").then((m) => m.run())],
  ["Load with faults", () => import("./load-faults").then((m) => m.run())],
  ["B7 Merchant JSON", () => import("./b7-merchant-json").then((m) => m.run())],
];

const only = process.argv.slice(2);
const started = Date.now();
let failed = 0;
for (const [name, run] of benches) {
  if (only.length && !only.some((o) => name.toLowerCase().startsWith(o.toLowerCase()))) continue;
  console.log(`\n=== ${name} ===`);
  try {
    await run();
  } catch (e) {
    failed++;
    console.error(`${name} failed:`, e);
  }
}
await stopCluster();
console.log(
  `\nbenchmarks finished in ${Math.round((Date.now() - started) / 1000)} s${failed ? `, ${failed} failed` : ""}`,
);
process.exit(failed ? 1 : 0);
