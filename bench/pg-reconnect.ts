/**
 * Issue 25, upstream porsager/postgres #1193: does a postgres.js pool hang (30 s CONNECT_TIMEOUT)
 * after an immediate stop of PostgreSQL and a start, for minutes afterwards? Runs one pool with the
 * driver's defaults (or ours) under steady load from 8 clients with bursts of 40 queries every 2 s,
 * SIGQUITs the cluster (as `pg_ctl stop -m immediate`), starts it again after 1.5 s (OUTAGE_MS) and reports
 * every query slower than 1 s or failing, by seconds after the database was back.
 *
 *   node --import tsx [--import ./db/postgres-fix.ts] bench/pg-reconnect.ts [defaults|ours] [seconds after restart, default 180]
 *
 * With the driver's defaults and without the patch, no slow query was seen in two runs (1.5 s and
 * 8 s down); with our settings, unpatched, the driver threw "Cannot read properties of null (reading
 * 'write')" (counted below as `uncaught`). The deterministic reproduction is db/postgres-fix.test.ts.
 */
import postgres from "postgres";
import path from "node:path";
import fs from "node:fs";
import { startEmbeddedPostgres, databaseUrl, ensureDatabase } from "../db/embedded";

const mode = process.argv[2] ?? "defaults";
const seconds = Number(process.argv[3] ?? 180);
const dataDir = path.join(".data", `pg-reconnect-${process.pid}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let pg = await startEmbeddedPostgres({ dataDir, settings: {} });
const port = pg.port;
await ensureDatabase(pg.adminUrl, "platform");
const url = databaseUrl(pg.adminUrl, "platform");
const options: postgres.Options<Record<string, never>> =
  mode === "ours"
    ? { max: 10, onnotice: () => {}, connect_timeout: 5, idle_timeout: 300, max_lifetime: 1800, keep_alive: 30 }
    : { max: 10, onnotice: () => {} };
const uncaught: string[] = [];
process.on("uncaughtException", (e) => void uncaught.push(e.message));
let closes = 0;
const sql = postgres(url, {
  ...options,
  onclose: () => void closes++,
  connection: { application_name: "repro" },
} as never);
await sql`create table if not exists t (id serial primary key, at timestamptz not null default now())`;

type Sample = { at: number; ms: number; error?: string };
const samples: Sample[] = [];
let back = 0;
let stopping = false;
const one = async () => {
  const started = Date.now();
  try {
    await sql.begin(async (tx) => {
      await tx`insert into t default values`;
      await tx`select count(*) from t where id > ${Math.floor(Math.random() * 1000)}`;
    });
    samples.push({ at: started, ms: Date.now() - started });
  } catch (e) {
    samples.push({
      at: started,
      ms: Date.now() - started,
      error: (e as { code?: string }).code ?? (e as Error).message,
    });
  }
};
const clients = Array.from({ length: 8 }, async () => {
  while (!stopping) {
    await one();
    await sleep(20);
  }
});
const bursts = (async () => {
  while (!stopping) {
    await Promise.all(Array.from({ length: 40 }, one));
    await sleep(2000);
  }
})();
const originalConnects = sql.options as unknown as { shared: { retries: number } };

await sleep(5000);
console.log(`[${mode}] steady load running; immediate stop`);
await pg.stop({ immediate: true });
await sleep(Number(process.env.OUTAGE_MS ?? 1500));
pg = await startEmbeddedPostgres({ dataDir, port, settings: {} });
back = Date.now();
console.log(`[${mode}] database back; watching ${seconds} s`);
for (let s = 0; s < seconds; s += 30) {
  await sleep(30_000);
  const recent = samples.filter((x) => x.at >= back + s * 1000);
  const bad = recent.filter((x) => x.ms >= 1000 || x.error);
  console.log(
    `[${mode}] +${s + 30} s: ${recent.length} queries, ${bad.length} slow or failed; shared.retries=${originalConnects.shared.retries} closes=${closes}`,
  );
}
stopping = true;
await Promise.all([...clients, bursts]);
const after = samples.filter((x) => x.at >= back);
const bad = after.filter((x) => x.ms >= 1000 || x.error);
const byKind = new Map<string, number>();
for (const b of bad) byKind.set(`${b.error ?? "slow"}`, (byKind.get(`${b.error ?? "slow"}`) ?? 0) + 1);
console.log(
  `[${mode}] after restart: ${after.length} queries; slow (>= 1 s) or failed: ${bad.length}`,
  Object.fromEntries(byKind),
);
for (const b of bad.slice(0, 40))
  console.log(`  +${((b.at - back) / 1000).toFixed(1)} s  ${b.ms} ms  ${b.error ?? ""}`);
const late = bad.filter((b) => b.at >= back + 10_000);
console.log(
  `[${mode}] from 10 s after the restart: ${late.length} slow or failed (max ${Math.max(0, ...late.map((b) => b.ms))} ms); uncaught: ${JSON.stringify(uncaught)}`,
);
await sql.end({ timeout: 1 });
await pg.stop();
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
