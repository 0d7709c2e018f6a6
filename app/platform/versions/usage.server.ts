/**
 * App API calls per app, API version and operation (issue 32, decision 042), counted without a
 * write per request: each process adds to counters in memory and a timer adds them to daily rows
 * (`api_version_usage`, one upsert for the whole batch) every FLUSH_MS. A process that dies loses
 * at most the counts since its last flush: the figures are for the developer's "API health" page
 * and the deprecation notices, where a few seconds of calls do not change what they say.
 */
import type { Db } from "../../../db/client";
import { rawQuery } from "../../../db/sql";
import { now } from "../core/clock.server";

export const FLUSH_MS = 5_000;

type Pending = { db: Db; counts: Map<string, number>; timer: NodeJS.Timeout | null };
// per database (tests run several platforms in one process); on globalThis: the Remix build and the
// worker's source modules are two copies of this module in one process
const pending = ((globalThis as { __apiUsage?: Map<Db, Pending> }).__apiUsage ??= new Map<Db, Pending>());

const SEP = "\u0000";

/** Counts one call; the count reaches the database within FLUSH_MS. */
export function countCall(db: Db, appId: string, apiVersion: string, operation: string) {
  let p = pending.get(db);
  if (!p) pending.set(db, (p = { db, counts: new Map(), timer: null }));
  const key = [appId, now().toISOString().slice(0, 10), apiVersion, operation].join(SEP);
  p.counts.set(key, (p.counts.get(key) ?? 0) + 1);
  if (!p.timer) {
    p.timer = setTimeout(() => void flushUsage(db), FLUSH_MS);
    p.timer.unref();
  }
}

const FLUSH_SQL = `
  insert into api_version_usage (app_id, day, api_version, operation, calls)
  select u.app_id, u.day::date, u.api_version, u.operation, u.calls
  from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[]) as u(app_id, day, api_version, operation, calls)
  where exists (select 1 from apps a where a.id = u.app_id)
  on conflict (app_id, day, api_version, operation) do update set calls = api_version_usage.calls + excluded.calls`;

/** Adds the counted calls to their daily rows now (the timer's work; tests and shutdown call it). */
export async function flushUsage(db: Db): Promise<void> {
  const p = pending.get(db);
  if (!p) return;
  if (p.timer) clearTimeout(p.timer);
  p.timer = null;
  if (p.counts.size === 0) return;
  const batch = [...p.counts];
  p.counts = new Map();
  const cols: string[][] = [[], [], [], []];
  const calls: number[] = [];
  for (const [key, n] of batch.sort(([a], [b]) => (a < b ? -1 : 1))) {
    key.split(SEP).forEach((v, i) => cols[i].push(v));
    calls.push(n);
  }
  try {
    await rawQuery(db, FLUSH_SQL, [...cols, calls]);
  } catch (e) {
    // lost counts are acceptable (decision 042); never an unhandled rejection
    console.error("[versions] could not record API usage:", (e as Error).message);
  }
}

/**
 * The last flush for a database about to close (the web server's close calls it after its last
 * request): counts since the last timer reach their rows, and no timer is left to fire on a closed
 * pool.
 */
export async function closeUsage(db: Db): Promise<void> {
  await flushUsage(db);
  pending.delete(db);
}
