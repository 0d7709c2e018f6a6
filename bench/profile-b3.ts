/** Profiling aid (not part of `npm run bench`): B3 under the CPU profiler, written to .data/prof/b3.cpuprofile. */
import fs from "node:fs";
import inspector from "node:inspector/promises";
import { run } from "./b3-hooks";
import { stopCluster } from "./lib";

const session = new inspector.Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 100 });
await session.post("Profiler.start");
const started = performance.now();
await run(Number(process.env.BENCH_SAMPLES ?? 40));
console.log("wall ms", Math.round(performance.now() - started));
const { profile } = await session.post("Profiler.stop");
fs.mkdirSync(".data/prof", { recursive: true });
fs.writeFileSync(".data/prof/b3.cpuprofile", JSON.stringify(profile));
await stopCluster();
process.exit(0);
