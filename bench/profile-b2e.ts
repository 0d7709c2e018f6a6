/** Profiling aid (not part of `npm run bench`): B2e's platform run under the CPU profiler, written to .data/prof/b2e.cpuprofile, with a summary of the hottest functions. */
import fs from "node:fs";
import inspector from "node:inspector/promises";
import { platformRun, startPeer } from "./b2e-flash-sale";
import { stopCluster } from "./lib";

const session = new inspector.Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 200 });
await session.post("Profiler.start");
const peer = startPeer();
console.log(await platformRun(peer));
peer.close();
const { profile } = await session.post("Profiler.stop");
fs.mkdirSync(".data/prof", { recursive: true });
fs.writeFileSync(".data/prof/b2e.cpuprofile", JSON.stringify(profile));
// self time by function and by file (module), top 25 each
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
for (const id of profile.samples ?? []) self.set(id, (self.get(id) ?? 0) + 1);
const total = profile.samples?.length ?? 1;
const fn = new Map<string, number>();
const file = new Map<string, number>();
for (const [id, n] of self) {
  const node = byId.get(id)!;
  const f = node.callFrame;
  const name = `${f.functionName || "(anon)"} ${f.url.replace(/^.*node_modules\//, "nm:").replace(/^file:\/\/\/work\/main\//, "")}:${f.lineNumber}`;
  fn.set(name, (fn.get(name) ?? 0) + n);
  const mod =
    f.url.replace(/^.*node_modules\/((@[^/]+\/)?[^/]+).*$/, "$1").replace(/^file:\/\/\/work\/main\//, "") ||
    f.functionName;
  file.set(mod, (file.get(mod) ?? 0) + n);
}
const top = (m: Map<string, number>) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 25)
    .map(([k, v]) => `${((v / total) * 100).toFixed(1).padStart(5)}%  ${k}`)
    .join("\n");
console.log("\nself time by module\n" + top(file) + "\n\nself time by function\n" + top(fn));
await stopCluster();
process.exit(0);
