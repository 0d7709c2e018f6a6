/**
 * Shared pieces of the benchmarks: a fresh database on a dedicated embedded cluster, the platform
 * in production mode (NODE_ENV=production, the production Remix build), autocannon runs, tables and
 * JSON results under bench/results/.
 */
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import autocannon from "autocannon";
import { startTestCluster, cloneTemplate, prepareTemplate, dropDatabase, FAST_SETTINGS } from "../db/testing/cluster";
import { createDb, type DbHandle } from "../db/client";
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { loadEnv, type Env } from "../app/platform/core/env.server";
import { createWebServer, type WebServer } from "../app/web.server";
import { startWorker, type Worker } from "../jobs/worker";
import { createAccount } from "../app/platform/accounts/accounts.server";
import { tokenForNewSession } from "../app/platform/accounts/second-step.server";

// React picks its production or development build by process.env.NODE_ENV when it is first loaded;
// the Dockerfile runs with NODE_ENV=production, and so do the benchmarks: `--import
// ./bench/production-mode.ts` (package.json) sets it before any module loads. startBench refuses to
// measure with a development build loaded (the e-mail templates had brought it back unseen).
process.env.NODE_ENV ??= "production";
const require = createRequire(import.meta.url);
function assertProductionReact() {
  // run, not only parsed: Node's ES module loader parses both branches of React's index.js for their exports
  const development = Object.entries(require.cache)
    .filter(([f, m]) => m?.loaded && /[\\/]react[^\\/]*[\\/]cjs[\\/].*development\.js$/.test(f))
    .map(([f]) => f);
  if (development.length)
    throw new Error(
      `benchmarks must run React's production build (run them with npm run bench, bench:scale or bench:profile -- <file>, which load bench/production-mode.ts first); loaded: ${development.join(", ")}`,
    );
}

export type Bench = {
  db: DbHandle;
  env: Env;
  web: WebServer;
  worker: Worker | null;
  dbUrl: string;
  adminUrl: string;
  close(): Promise<void>;
};

let fastCluster: Awaited<ReturnType<typeof startTestCluster>> | null = null;
let durableCluster: Awaited<ReturnType<typeof startTestCluster>> | null = null;

/**
 * `durable`: a second cluster with PostgreSQL's default, crash-safe settings (fsync, synchronous
 * commit, full-page writes), as a managed PostgreSQL runs: every commit waits for its WAL flush, so
 * rows that many transactions update are held through that wait (issue 16). The default cluster
 * trades that safety for speed (fsync off) and so measures CPU alone.
 */
/** The SMTP sink (bench/smtp-sink.ts), forked once and shared by every run: its URL. */
let smtpSink: Promise<string> | undefined;
function startSmtpSink(): Promise<string> {
  return (smtpSink ??= new Promise<string>((resolve, reject) => {
    const child = fork(fileURLToPath(new URL("./smtp-sink.ts", import.meta.url)), [], {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    child.once("error", reject);
    child.once("message", (m: { url: string }) => resolve(m.url));
    // the sink ends with this process (it exits when the IPC channel closes)
    child.unref();
    child.channel?.unref();
  }));
}

/**
 * The routes are served from the Remix build (build/index.js), the rest from source: a build older
 * than a file it bundles measures the old code's routes beside the new code's server (session 15's
 * search measured at 2.5 s this way). Refuses to measure then.
 */
function assertFreshBuild() {
  if (process.env.BENCH_STALE_BUILD === "1") return;
  let built: number;
  try {
    built = fs.statSync(path.resolve("build/index.js")).mtimeMs;
  } catch {
    throw new Error("no Remix build: run `npx remix build` before benchmarking");
  }
  const newer = (dir: string): string | null => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        const found = newer(file);
        if (found) return found;
      } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && fs.statSync(file).mtimeMs > built)
        return file;
    }
    return null;
  };
  for (const dir of ["app", "storefront", "db"]) {
    const found = newer(path.resolve(dir));
    if (found)
      throw new Error(
        `${path.relative(process.cwd(), found)} is newer than the Remix build: run \`npx remix build\` (or BENCH_STALE_BUILD=1)`,
      );
  }
}

export async function startBench(
  options: { worker?: boolean; workerConcurrency?: number; durable?: boolean } = {},
): Promise<Bench> {
  assertFreshBuild();
  const cluster = options.durable
    ? (durableCluster ??= await startTestCluster("bench-durable-postgres", {}))
    : (fastCluster ??= process.env.BENCH_STATEMENTS
        ? // statements by their time in the database (printStatementTimes): pg_stat_statements loaded, in a cluster of its own
          await startTestCluster("bench-statements-postgres", {
            ...FAST_SETTINGS,
            shared_preload_libraries: "pg_stat_statements",
            "pg_stat_statements.track": "all",
          })
        : await startTestCluster("bench-postgres"));
  const template = await prepareTemplate(cluster.adminUrl, "bench_");
  const name = `bench_${randomBytes(4).toString("hex")}`;
  const dbUrl = await cloneTemplate(cluster.adminUrl, template, name);
  const env = loadEnv({
    NODE_ENV: "production",
    DATABASE_URL: dbUrl,
    SESSION_SECRET: randomBytes(32).toString("base64url"),
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    OUTBOUND_ALLOW_PRIVATE: "true",
    APP_API_RATE_LIMIT: "1000000000",
    // the two origins, on the port the server gets (below): the platform on localhost, storefronts on 127.0.0.1
    PUBLIC_URL: "http://localhost",
    STOREFRONT_URL: "http://127.0.0.1",
    DATA_DIR: ".data/bench-tmp",
    WORKER_CONCURRENCY: String(options.workerConcurrency ?? 20),
    MAIL_URL: await startSmtpSink(),
    ...(process.env.MAIL_CONCURRENCY ? { MAIL_CONCURRENCY: process.env.MAIL_CONCURRENCY } : {}),
  });
  // BENCH_POOL: the web's pool size (20), to measure what fewer, fuller connections do
  const db = createDb(dbUrl, { max: Number(process.env.BENCH_POOL ?? 20) });
  const web = await createWebServer({ db: db.db, env, port: 0, host: "127.0.0.1" });
  assertProductionReact();
  Object.assign(env, { publicUrl: `http://localhost:${web.port}`, storefrontUrl: `http://127.0.0.1:${web.port}` });
  const worker = options.worker
    ? await startWorker({ url: dbUrl, deps: { db: db.db, env }, concurrency: options.workerConcurrency ?? 20 })
    : null;
  const adminUrl = cluster.adminUrl;
  return {
    db,
    env,
    web,
    worker,
    dbUrl,
    adminUrl,
    async close() {
      await worker?.stop();
      await web.close();
      await db.close();
      await dropDatabase(adminUrl, name).catch(() => {});
    },
  };
}

/**
 * Runs a benchmark when its own file is what node was started with (`node --import tsx
 * bench/b1-app-api.ts`), then stops the shared cluster and exits; `npm run bench` imports it instead.
 */
export function runIfMain(moduleUrl: string, run: () => Promise<unknown>) {
  if (moduleUrl !== `file://${process.argv[1]}`) return;
  void run()
    .then(() => stopCluster())
    .then(() => process.exit(0));
}

export async function stopCluster() {
  await fastCluster?.embedded?.stop();
  await durableCluster?.embedded?.stop();
  fastCluster = durableCluster = null;
}

export async function developer(b: Bench) {
  const email = `bench-${randomBytes(4).toString("hex")}@example.test`;
  const { account, business } = await createAccount(b.db.db, {
    email,
    password: "bench-password",
    name: "Bench",
    role: "DEVELOPER",
  });
  return {
    account,
    business: business!,
    token: await tokenForNewSession(b.db.db, b.env, account, { ip: "127.0.0.1", userAgent: "bench" }, "bench"),
  };
}

export type LoadResult = {
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
};

export async function load(
  url: string,
  options: {
    connections: number;
    durationSec: number;
    headers?: Record<string, string>;
    method?: string;
    body?: string;
  },
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.durationSec,
    pipelining: 1,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.method ? { method: options.method as "GET" } : {}),
    ...(options.body ? { body: options.body } : {}),
  });
  return {
    connections: options.connections,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/**
 * BENCH_STATEMENTS=1: `start()` before a load, then `print()` after it writes the 25 statements of
 * this database that took the most time in the server during the load (nested ones, such as a
 * trigger's, apart), from pg_stat_statements. A profiling aid: the database's half of a path's cost.
 */
export async function statementTimes(b: Bench) {
  const on = Boolean(process.env.BENCH_STATEMENTS);
  return {
    async start() {
      if (!on) return;
      await b.db.sql.unsafe("create extension if not exists pg_stat_statements");
      await b.db.sql.unsafe("select pg_stat_statements_reset()");
    },
    async print(title: string) {
      if (!on) return;
      const rows = await b.db.sql.unsafe<{ ms: number; calls: number; us: number; toplevel: boolean; q: string }[]>(`
        select round(total_exec_time)::int as ms, calls, round(total_exec_time / calls * 1000)::int as us, toplevel,
          left(regexp_replace(query, '\\s+', ' ', 'g'), 100) as q
        from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
        order by total_exec_time desc limit 25`);
      console.log(`\n${title}: statements by time in the database (ms in all, calls, µs a call)`);
      for (const r of rows)
        console.log(
          `${String(r.ms).padStart(7)} ${String(r.calls).padStart(7)} ${String(r.us).padStart(7)}  ${r.toplevel ? "" : "(nested) "}${r.q}`,
        );
    },
  };
}

/** Milliseconds of one async call. */
export async function time<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { ms: round2(performance.now() - started), value };
}

/** Rounded to two decimals, as the results show ratios and milliseconds. */
export const round2 = (v: number) => Math.round(v * 100) / 100;

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export function table(title: string, rows: Record<string, unknown>[]) {
  console.log(`\n${title}`);
  console.table(rows);
}

export function writeResult(name: string, data: unknown) {
  const file = path.join("bench", "results", `${name}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    JSON.stringify({ at: new Date().toISOString(), node: process.version, ...((data as object) ?? {}) }, null, 2) +
      "\n",
  );
  console.log(`wrote ${file}`);
}

/** Prints a benchmark's rows as a table and writes them with the run's duration to bench/results/<name>.json. */
export function reportRows(title: string, name: string, durationSec: number, rows: Record<string, unknown>[]) {
  table(title, rows);
  writeResult(name, { durationSec, rows });
  return rows;
}

/**
 * CPU time (ms, user + system) spent so far by the machine's PostgreSQL processes and by the given
 * pids, read from /proc (Linux): what the database and a benchmark's peer cost an operation, beside
 * the measured Node process's own `process.cpuUsage()`. A backend that exits between two readings
 * loses what it spent since the first; the benchmarks' pools live through their runs.
 */
export function processCpu(pids: number[] = []): { postgres: number; pids: number } {
  const tick = 10; // ms per clock tick (USER_HZ 100 on Linux)
  let postgres = 0;
  let mine = 0;
  let entries: string[] = [];
  try {
    entries = fs.readdirSync("/proc").filter((e) => /^\d+$/.test(e));
  } catch {
    return { postgres: 0, pids: 0 };
  }
  for (const e of entries) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${e}/stat`, "utf8");
    } catch {
      continue;
    }
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const fields = stat.slice(close + 2).split(" ");
    // fields[11], [12]: utime and stime (the 14th and 15th of the whole line)
    const ms = (Number(fields[11]) + Number(fields[12])) * tick;
    if (comm === "postgres") postgres += ms;
    if (pids.includes(Number(e))) mine += ms;
  }
  return { postgres, pids: mine };
}
