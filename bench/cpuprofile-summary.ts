/**
 * Reads a V8 CPU profile (.cpuprofile: nodes, samples, timeDeltas) and prints where its time went:
 * self time by package and by function, and inclusive time by function (a function counted once per
 * sample however deep it recurses), in milliseconds and as a share of the profile's samples.
 *   node --import tsx bench/cpuprofile-summary.ts .data/prof/checkout.cpuprofile [top] [divisor]
 * `divisor` (e.g. the number of orders) adds a "per unit" column in microseconds.
 */
import fs from "node:fs";

type CallFrame = { functionName: string; url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
export type CpuProfile = {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
};

/** The package a frame belongs to: an npm package, a node: module, the Remix build, the project's file, or V8's pseudo-frames. */
export function packageOf(f: CallFrame): string {
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f.url);
  if (nm) return nm[1];
  if (f.url.startsWith("node:")) return "node:" + f.url.slice(5).split("/")[0];
  if (!f.url) return f.functionName || "(native)";
  if (/\/build\/index\.js$/.test(f.url)) return "app build (build/index.js)";
  return f.url.replace(/^file:\/\/\/work\/[^/]+\/[^/]+\//, "").replace(/^file:\/\/\/work\/main\//, "");
}

export function frameName(f: CallFrame): string {
  const where = f.url
    .replace(/^.*node_modules\//, "")
    .replace(/^file:\/\/\/work\/[^/]+\/[^/]+\//, "")
    .replace(/^file:\/\/\/work\/main\//, "");
  return `${f.functionName || "(anonymous)"} ${where}:${f.lineNumber + 1}`;
}

export function summarizeProfile(profile: CpuProfile, options: { top?: number; divisor?: number } = {}): string {
  const top = options.top ?? 30;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // each sample's time is the delta to the next sample (V8's convention: timeDeltas[i] precedes samples[i])
  const ms = new Map<number, number>();
  const deltas = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = (deltas[i + 1] ?? 0) / 1000;
    ms.set(profile.samples[i], (ms.get(profile.samples[i]) ?? 0) + dt);
  }
  const total = [...ms.values()].reduce((a, b) => a + b, 0);
  const idle = [...ms]
    .filter(([id]) => byId.get(id)!.callFrame.functionName === "(idle)")
    .reduce((a, [, v]) => a + v, 0);
  const selfPkg = new Map<string, number>();
  const selfFn = new Map<string, number>();
  const inclFn = new Map<string, number>();
  const inclPkg = new Map<string, number>();
  for (const [id, t] of ms) {
    const f = byId.get(id)!.callFrame;
    selfPkg.set(packageOf(f), (selfPkg.get(packageOf(f)) ?? 0) + t);
    selfFn.set(frameName(f), (selfFn.get(frameName(f)) ?? 0) + t);
    const seenFn = new Set<string>();
    const seenPkg = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const cf = byId.get(n)!.callFrame;
      seenFn.add(frameName(cf));
      seenPkg.add(packageOf(cf));
    }
    for (const k of seenFn) inclFn.set(k, (inclFn.get(k) ?? 0) + t);
    for (const k of seenPkg) inclPkg.set(k, (inclPkg.get(k) ?? 0) + t);
  }
  const line = (k: string, v: number) =>
    `${v.toFixed(0).padStart(7)} ms ${((v / total) * 100).toFixed(1).padStart(5)}%` +
    (options.divisor ? ` ${((v * 1000) / options.divisor).toFixed(0).padStart(6)} µs/unit` : "") +
    `  ${k}`;
  const list = (title: string, m: Map<string, number>, n = top) =>
    `\n${title}\n` +
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => line(k, v))
      .join("\n");
  return (
    `profile: ${total.toFixed(0)} ms sampled, ${idle.toFixed(0)} ms idle, ${(total - idle).toFixed(0)} ms busy` +
    (options.divisor ? ` (${(((total - idle) * 1000) / options.divisor).toFixed(0)} µs busy a unit)` : "") +
    list("self time by package", selfPkg, 25) +
    list("inclusive time by package (a package's code and what it calls)", inclPkg, 25) +
    list("self time by function", selfFn) +
    list("inclusive time by function", inclFn, top * 2)
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, top, divisor] = process.argv.slice(2);
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as CpuProfile;
  console.log(summarizeProfile(profile, { top: Number(top ?? 30), divisor: divisor ? Number(divisor) : undefined }));
}
