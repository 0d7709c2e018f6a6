/**
 * Profiling aid (not part of `npm run bench`): the storefront home page of B4c's shop (5 app blocks,
 * 3 embeds) at 16 connections straight to the origin; writes a CPU profile of the load to
 * .data/prof/b4c.cpuprofile and prints the functions and packages with the most self time.
 *   node --import tsx bench/profile-b4c.ts            (PATH_ONLY=/products/<slug> for a product page)
 */
import fs from "node:fs";
import inspector from "node:inspector/promises";
import { startBench, load, stopCluster } from "./lib";
import { richShop } from "./b4c-shop";

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
};

export function summarize(profile: { nodes: Node[]; samples: number[] }, top = 30) {
  const total = profile.nodes.reduce((s, n) => s + n.hitCount, 0);
  const byFn = new Map<string, number>();
  const byPkg = new Map<string, number>();
  for (const n of profile.nodes) {
    const { functionName, url, lineNumber } = n.callFrame;
    const fn = `${functionName || "(anonymous)"} ${url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*?i17-cache\//, "")}:${lineNumber + 1}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + n.hitCount);
    const pkg =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ??
      (url.startsWith("node:")
        ? "node:" + url.slice(5).split("/")[0]
        : url
          ? url.includes("/build/")
            ? "app build"
            : url.replace(/^.*i17-cache\//, "").split("/")[0]
          : functionName || "(native)");
    byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + n.hitCount);
  }
  const pct = (v: number) => `${((v / total) * 100).toFixed(1)}%`;
  console.log("\nself time by package");
  for (const [k, v] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(pct(v).padStart(7), k);
  console.log("\nself time by function");
  for (const [k, v] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(pct(v).padStart(7), k);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const b = await startBench();
  const { rich } = await richShop(b);
  const url = `${b.web.url}/s/${rich.slug}${process.env.PATH_ONLY ?? ""}`;
  const headers = { "accept-encoding": process.env.ENCODING ?? "gzip, deflate, br" };
  await load(url, { connections: 16, durationSec: 2, headers }); // warm up
  const session = new inspector.Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  const r = await load(url, {
    connections: Number(process.env.CONNECTIONS ?? 16),
    durationSec: Number(process.env.SECONDS ?? 5),
    headers,
  });
  const { profile } = await session.post("Profiler.stop");
  fs.mkdirSync(".data/prof", { recursive: true });
  fs.writeFileSync(".data/prof/b4c.cpuprofile", JSON.stringify(profile));
  console.log(r);
  summarize(profile as never);
  await b.close();
  await stopCluster();
  process.exit(0);
}
