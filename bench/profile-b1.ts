/**
 * Profiling aid (not part of `npm run bench`): runs B1's platform load only and writes a CPU
 * profile of the load (not of the start) to .data/prof/b1.cpuprofile.
 *   node --import tsx bench/profile-b1.ts
 */
import fs from "node:fs";
import inspector from "node:inspector/promises";
import { startBench, developer, load, stopCluster } from "./lib";
import { testInstallToken } from "./fixtures";

const b = await startBench();
const dev = await developer(b);
const { token } = await testInstallToken(b, dev, ["read_products"]);
const url = `${b.web.url}${process.env.PATH_ONLY ?? "/app-api/products?limit=50"}`;
const headers = { Authorization: `Bearer ${token}` };
await load(url, { connections: 16, durationSec: 2, headers }); // warm up
const session = new inspector.Session();
session.connect();
await session.post("Profiler.enable");
if (process.env.NO_PROFILE !== "1") await session.post("Profiler.start");
const cpu = process.cpuUsage();
const r = await load(url, {
  connections: Number(process.env.CONNECTIONS ?? 16),
  durationSec: Number(process.env.SECONDS ?? 5),
  headers,
});
const used = process.cpuUsage(cpu);
console.log(`CPU per request (server and client): ${((used.user + used.system) / 1000 / r.requests).toFixed(3)} ms`);
const { profile } = process.env.NO_PROFILE === "1" ? { profile: {} } : await session.post("Profiler.stop");
fs.mkdirSync(".data/prof", { recursive: true });
if (process.env.NO_PROFILE !== "1") fs.writeFileSync(".data/prof/b1.cpuprofile", JSON.stringify(profile));
console.log(r);
await b.close();
await stopCluster();
process.exit(0);
