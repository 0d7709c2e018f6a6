/**
 * Issue 34, "the next query sometimes never answers": a failover's storm on one postgres.js pool.
 * Every backend of the pool is terminated at once (as a primary's crash does to every connection),
 * every 150-450 ms, while 24 clients run queries, inserts and transactions (some mid-statement) on a
 * pool of 10. Reports how many queries succeeded and failed (by code), those that waited longer than
 * 15 s while the storm went on (the driver's reconnect backoff, shared by the pool, reaches 20 s
 * under repeated failures), and, once the storm stops, any query that still has not answered 20 s
 * later: the defect.
 *
 *   node --import ./db/postgres-fix.ts --import tsx bench/pg-storm.ts [seconds, default 60]
 *   POSTGRES_FIX=connection-only …   without the pool's fix (index.js): the earlier patch alone
 *   POSTGRES_FIX=off …               the driver as published
 */
import postgres from "postgres";
import path from "node:path";
import { startEmbeddedPostgres, databaseUrl, ensureDatabase } from "../db/embedded";

const seconds = Number(process.argv[2] ?? 60);
const pg = await startEmbeddedPostgres({ dataDir: path.join(".data", `pg-storm-${process.pid}`), settings: {} });
await ensureDatabase(pg.adminUrl, "platform");
const url = databaseUrl(pg.adminUrl, "platform");
const admin = postgres(url, { max: 1, onnotice: () => {} });
const sql = postgres(url, {
  max: 10,
  onnotice: () => {},
  connect_timeout: 5,
  connection: { application_name: "storm" },
});
await sql`create table if not exists storm (id serial primary key, v int)`;
// the driver rejects its own start-up queries with nobody to catch them; count them (server.ts logs them)
let uncaught = 0;
process.on("uncaughtException", () => void uncaught++);

type Pending = { at: number; kind: string; phase: string };
const pending = new Map<number, Pending>();
let seq = 0;
let ok = 0;
const failed = new Map<string, number>();
let stop = false;
async function client(n: number) {
  while (!stop) {
    const id = ++seq;
    const p: Pending = { at: Date.now(), kind: ["query", "tx", "sleep-tx", "insert"][id % 4], phase: "" };
    pending.set(id, p);
    try {
      if (p.kind === "query") await sql`select 1`;
      else if (p.kind === "insert") await sql`insert into storm (v) values (${n})`;
      else {
        p.phase = "begin";
        await sql.begin(async (tx) => {
          p.phase = "first statement";
          await (p.kind === "tx" ? tx`select 1` : tx`select pg_sleep(0.05)`);
          p.phase = "second statement";
          await tx`insert into storm (v) values (${n})`;
          p.phase = "commit";
        });
      }
      ok++;
    } catch (e) {
      const code = (e as { code?: string }).code ?? (e as Error).message.slice(0, 40);
      failed.set(code, (failed.get(code) ?? 0) + 1);
    }
    pending.delete(id);
  }
}
const describe = (ps: Pending[]) => ps.map((p) => `${p.kind}${p.phase ? ` (${p.phase})` : ""}`);

const clients = Array.from({ length: 24 }, (_, i) => client(i));
const end = Date.now() + seconds * 1000;
let storms = 0;
let longest = 0;
const waitedOver15s = new Set<Pending>();
while (Date.now() < end) {
  await new Promise((r) => setTimeout(r, 150 + Math.random() * 300));
  await admin`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'storm'`.catch(() => {});
  storms++;
  for (const p of pending.values()) {
    longest = Math.max(longest, Date.now() - p.at);
    if (Date.now() - p.at > 15_000) waitedOver15s.add(p);
  }
}
stop = true;
const stoppedAt = Date.now();
await Promise.race([Promise.all(clients), new Promise((r) => setTimeout(r, 20_000))]);
const neverAnswered = [...pending.values()];
console.log(
  JSON.stringify({
    fix: process.env.POSTGRES_FIX ?? "on",
    seconds,
    storms,
    ok,
    failed: Object.fromEntries(failed),
    longestWaitMs: longest,
    waitedOver15s: describe([...waitedOver15s]),
    settledAfterStormMs: neverAnswered.length ? null : Date.now() - stoppedAt,
    neverAnswered: describe(neverAnswered),
    uncaughtDriverErrors: uncaught,
  }),
);
await admin.end({ timeout: 1 });
await Promise.race([sql.end({ timeout: 1 }), new Promise((r) => setTimeout(r, 2000))]);
await pg.stop();
process.exit(neverAnswered.length ? 1 : 0);
