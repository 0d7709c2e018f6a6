/**
 * B4c Storefront at scale (issue 17): B4's shop (a home page with 5 app blocks and 3 embeds, the demo
 * menu of 24 products) served
 *   1. straight by the platform (the origin): the home page and a product page at 1 and 16
 *      connections (pages/s, p50, and the platform's CPU per page), and the browse mix at 16, as the
 *      issue measured (no Accept-Encoding); the home page once more as browsers ask (compressed);
 *   2. through Debian's nginx with deploy/nginx/config.ts's shared cache: the browse mix (the home
 *      page, the menu and 20 product pages, each connection taking them in turn), from a cold cache,
 *      at 16 and 64 connections: pages/s, and the cache's verdicts from its access log (hit ratio).
 * The load generator runs in a process of its own (bench/b4c-client.ts). Targets (issue 17): home
 * page p50 at most 6 ms at 1 connection and at least 250 pages/s at 16; through nginx at least 10 x
 * the origin's pages/s with a hit ratio of at least 95 %.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import fs from "node:fs";
import { startBench, table, writeResult, runIfMain, round2 } from "./lib";
import { richShop } from "./b4c-shop";
import type { ClientResult, ClientRun } from "./b4c-client";
import { cacheVerdicts, freePort, startNginx } from "../deploy/nginx/run";
import { SHARED_MAX_AGE } from "../storefront/http-cache";

const exec = promisify(execFile);

/** One load run from the client process; the platform's CPU time per answered request meanwhile. */
async function client(run: ClientRun): Promise<ClientResult & { cpuMsPerRequest: number }> {
  const cpu = process.cpuUsage();
  const { stdout } = await exec(process.execPath, ["--import", "tsx", "bench/b4c-client.ts", JSON.stringify(run)], {
    maxBuffer: 1 << 20,
  });
  const used = process.cpuUsage(cpu);
  const result = JSON.parse(stdout.trim().split("\n").pop()!) as ClientResult;
  return {
    ...result,
    cpuMsPerRequest: round2((used.user + used.system) / 1000 / Math.max(1, result.requests)),
  };
}

/** The browse mix through nginx runs past two of the pages' expiries (s-maxage), so that revalidations count too. */
const NGINX_SECONDS = 2 * SHARED_MAX_AGE + 3;

const ok = (r: ClientResult) => Object.entries(r.statuses).every(([s]) => s === "200") && r.errors === 0;

export async function run(durationSec = Number(process.env.BENCH_SECONDS ?? 8)) {
  const nginxPort = await freePort();
  const b = await startBench();
  try {
    // the shops' address is nginx's: the origin serves the Host it is given (decision 013)
    const host = `127.0.0.1:${nginxPort}`;
    Object.assign(b.env, { publicUrl: `http://localhost:${nginxPort}`, storefrontUrl: `http://${host}` });
    const { rich } = await richShop(b);
    const home = `/s/${rich.slug}`;
    const product = `${home}/products/${rich.productSlugs[0]}`;
    const mix = [home, `${home}/products`, ...rich.productSlugs.slice(0, 20).map((s) => `${home}/products/${s}`)];
    // as a browser asks: compressed answers (the platform compresses pages since decision 020)
    const browser = { "accept-encoding": "gzip, deflate, br" };
    const origin = (
      paths: string[],
      connections: number,
      seconds = durationSec,
      headers: Record<string, string> = {},
    ) => client({ url: b.web.url, paths, connections, durationSec: seconds, headers: { host, ...headers } });

    await origin(mix, 8, 2); // warm-up (JIT, statement caches)
    const rows: Record<string, unknown>[] = [];
    const originRuns: Record<string, ClientResult & { cpuMsPerRequest: number }> = {};
    for (const [name, paths] of [
      ["home page", [home]],
      ["product page", [product]],
    ] as const) {
      for (const connections of [1, 16]) {
        const r = await origin([...paths], connections);
        if (!ok(r)) throw new Error(`origin ${name} answered ${JSON.stringify(r.statuses)} (${r.errors} errors)`);
        originRuns[`${name} x${connections}`] = r;
        rows.push({
          run: `origin: ${name}`,
          connections,
          "pages/s": r.rps,
          "p50 ms": r.p50,
          "p99 ms": r.p99,
          "platform CPU ms/page": r.cpuMsPerRequest,
          "hit ratio": "",
        });
      }
    }
    const compressed = await origin([home], 16, durationSec, browser);
    if (!ok(compressed))
      throw new Error(`origin home page (compressed) answered ${JSON.stringify(compressed.statuses)}`);
    originRuns["home page x16 compressed"] = compressed;
    rows.push({
      run: "origin: home page, brotli",
      connections: 16,
      "pages/s": compressed.rps,
      "p50 ms": compressed.p50,
      "p99 ms": compressed.p99,
      "platform CPU ms/page": compressed.cpuMsPerRequest,
      "hit ratio": "",
    });
    const originMix = await origin(mix, 16);
    if (!ok(originMix)) throw new Error(`origin browse mix answered ${JSON.stringify(originMix.statuses)}`);
    rows.push({
      run: "origin: browse mix",
      connections: 16,
      "pages/s": originMix.rps,
      "p50 ms": originMix.p50,
      "p99 ms": originMix.p99,
      "platform CPU ms/page": originMix.cpuMsPerRequest,
      "hit ratio": "",
    });

    const nginxRuns: Record<string, unknown>[] = [];
    for (const connections of [16, 64]) {
      // a cold cache for each run
      const nginx = await startNginx({
        prefix: ".data/bench-nginx",
        port: nginxPort,
        upstreams: [b.web.url.replace(/^http:\/\//, "")],
        platformHost: "localhost",
        storefrontHost: "127.0.0.1",
        workerProcesses: 1,
      });
      let r: ClientResult & { cpuMsPerRequest: number };
      try {
        r = await client({
          url: `http://${host}`,
          paths: mix,
          connections,
          durationSec: connections === 16 ? Math.max(durationSec, NGINX_SECONDS) : durationSec,
          headers: browser,
        });
      } finally {
        await nginx.stop();
      }
      if (!ok(r)) throw new Error(`nginx browse mix answered ${JSON.stringify(r.statuses)} (${r.errors} errors)`);
      const verdicts = cacheVerdicts(nginx.accessLog);
      const total = Object.values(verdicts).reduce((s, n) => s + n, 0);
      const hitRatio = Math.round(((verdicts.HIT ?? 0) / Math.max(1, total)) * 10000) / 100;
      nginxRuns.push({
        connections,
        ...r,
        verdicts,
        hitRatio,
        timesOrigin: Math.round((r.rps / originMix.rps) * 10) / 10,
      });
      rows.push({
        run: "nginx: browse mix (cold cache)",
        connections,
        "pages/s": r.rps,
        "p50 ms": r.p50,
        "p99 ms": r.p99,
        "platform CPU ms/page": r.cpuMsPerRequest,
        "hit ratio": `${hitRatio} % (${JSON.stringify(verdicts)})`,
      });
      fs.rmSync(nginx.prefix, { recursive: true, force: true });
    }
    table("B4c Storefront at scale: the origin, and nginx's shared cache in front", rows);
    const best = nginxRuns.reduce((a, r) => ((r as { rps: number }).rps > (a as { rps: number }).rps ? r : a)) as {
      rps: number;
      hitRatio: number;
      connections: number;
    };
    const summary = {
      "home p50 ms at 1 connection (target <= 6)": originRuns["home page x1"].p50,
      "home pages/s at 16 connections (target >= 250)": originRuns["home page x16"].rps,
      "nginx browse mix pages/s / origin browse mix pages/s (target >= 10)":
        Math.round((best.rps / originMix.rps) * 10) / 10,
      "nginx hit ratio % (target >= 95)": best.hitRatio,
    };
    console.log(summary);
    writeResult("b4c-storefront-cache", { durationSec, rows, originRuns, originMix, nginxRuns, summary });
    return summary;
  } finally {
    await b.close();
  }
}

runIfMain(import.meta.url, run);
