/**
 * The developer's live logs (contract 19, decision 078): each App API request, webhook delivery
 * attempt and hook call of an app's installations, streamed as it happens.
 *
 * The hot paths pay nothing measurable: an App API request is only pushed onto an in-memory list
 * (`noteAppApiRequest`), which a timer writes to `app_api_requests` in one multi-row insert every
 * FLUSH_MS (a quarter second, so that a stream shows a request within a second); attempts and hook
 * calls are already written by their own code (`webhook_attempts`, `hook_calls`) and are only read.
 * Reading happens only while a stream is open: every POLL_MS, three indexed queries from the
 * stream's cursors. `app_api_requests` keeps a day (`pruneRequestLog`, hourly).
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { rawQuery } from "../../../db/sql";
import { businessNow } from "../core/clock.server";
import { ApiError, eventStreamResponse, lastDatabaseOutage } from "../core/http.server";

export const FLUSH_MS = 250;
export const POLL_MS = 500;
/** How far back `?since=` may reach. */
export const REPLAY_MS = 15 * 60_000;
/** How long app_api_requests keeps a request. */
export const RETENTION_MS = 24 * 3600_000;
/** Rows committed a little out of order are still seen: each poll re-reads this far behind its cursor. */
const OVERLAP_MS = 3_000;

/** The platform's time, never a sandbox's (the logs are in the developer's real time). */
const platformNow = () => businessNow({ clockOffsetSeconds: 0 });

export type AppApiRequestLog = {
  appId: string;
  installationId: string;
  businessId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  apiVersion: string;
};

type Pending = { rows: (AppApiRequestLog & { at: Date })[]; timer: NodeJS.Timeout | null; pausedUntil: number };
// per database (tests run several platforms in one process); on globalThis, as versions/usage.server.ts
const pending = ((globalThis as { __requestLog?: Map<Db, Pending> }).__requestLog ??= new Map<Db, Pending>());
/** After a failed write the log waits this long before the next one. */
const PAUSE_AFTER_FAILURE_MS = 30_000;
/** A burst beyond this many requests between two flushes keeps the newest: the log never grows without bound. */
const MAX_PENDING = 5_000;

/** Notes one App API request (the App API wrapper, after its answer); written within FLUSH_MS. */
export function noteAppApiRequest(db: Db, row: AppApiRequestLog) {
  let p = pending.get(db);
  if (!p) pending.set(db, (p = { rows: [], timer: null, pausedUntil: 0 }));
  if (p.rows.length >= MAX_PENDING) p.rows.shift();
  p.rows.push({ ...row, at: platformNow() });
  if (!p.timer) {
    p.timer = setTimeout(() => void flushRequestLog(db), Math.max(FLUSH_MS, p.pausedUntil - Date.now()));
    p.timer.unref();
  }
}

const FLUSH_SQL = `
  insert into app_api_requests (app_id, installation_id, business_id, method, path, status, duration_ms, api_version, at)
  select u.app_id, u.installation_id, u.business_id, u.method, u.path, u.status::int, u.duration_ms::int, u.api_version, u.at::timestamptz
  from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
    as u(app_id, installation_id, business_id, method, path, status, duration_ms, api_version, at)`;

/** Writes the noted requests now (the timer's work; shutdown calls it too). */
export async function flushRequestLog(db: Db): Promise<void> {
  const p = pending.get(db);
  if (!p) return;
  if (p.timer) clearTimeout(p.timer);
  p.timer = null;
  if (!p.rows.length) return;
  const rows = p.rows;
  p.rows = [];
  // right after the database was unreachable, the log gives way: a lost log line is acceptable, a
  // connection attempt that the requests' own queries then wait behind is not
  if (Date.now() - lastDatabaseOutage() < PAUSE_AFTER_FAILURE_MS) return;
  const cols = (f: (r: (typeof rows)[number]) => unknown) => rows.map((r) => String(f(r)));
  try {
    await rawQuery(db, FLUSH_SQL, [
      cols((r) => r.appId),
      cols((r) => r.installationId),
      cols((r) => r.businessId),
      cols((r) => r.method),
      cols((r) => r.path),
      cols((r) => r.status),
      cols((r) => r.durationMs),
      cols((r) => r.apiVersion),
      cols((r) => r.at.toISOString()),
    ]);
  } catch (e) {
    // a lost log line is acceptable; never an unhandled rejection. The database is likely down: the
    // log waits PAUSE_AFTER_FAILURE_MS before its next write, so that it does not keep opening
    // connections the requests' own queries then wait behind once the database is back
    p.pausedUntil = Date.now() + PAUSE_AFTER_FAILURE_MS;
    console.error("[devtools] could not record App API requests:", (e as Error).message);
  }
}

/** The last flush for a database about to close (the web server's close). */
export async function closeRequestLog(db: Db): Promise<void> {
  await flushRequestLog(db);
  pending.delete(db);
}

/** Deletes the requests older than RETENTION_MS (the hourly cron job devtools__prune_logs). */
export async function pruneRequestLog(db: Db): Promise<number> {
  const before = new Date(platformNow().getTime() - RETENTION_MS).toISOString();
  const r = await db.execute(sql`delete from app_api_requests where at < ${before}::timestamptz`);
  return r.count;
}

export type LogLine =
  | {
      kind: "request";
      id: string;
      at: string;
      installationId: string;
      method: string;
      path: string;
      status: number;
      durationMs: number;
      apiVersion: string;
    }
  | {
      kind: "delivery";
      id: string;
      at: string;
      installationId: string;
      deliveryId: string;
      event: string;
      attempt: number;
      success: boolean;
      status: number | null;
      durationMs: number | null;
      error: string | null;
      apiVersion: string;
    }
  | {
      kind: "hook";
      id: string;
      at: string;
      installationId: string;
      hookPoint: string;
      success: boolean;
      status: number | null;
      durationMs: number;
      error: string | null;
    };

type Cursor = { seq: number; attemptsAt: Date; hooksAt: Date; seen: Map<string, number> };

const iso = (v: unknown) => (v instanceof Date ? v : new Date(String(v))).toISOString();

/** The lines after the cursor, oldest first; the cursor moves past them. */
async function readLines(db: Db, appId: string, c: Cursor): Promise<LogLine[]> {
  const attemptsFrom = new Date(c.attemptsAt.getTime() - OVERLAP_MS).toISOString();
  const hooksFrom = new Date(c.hooksAt.getTime() - OVERLAP_MS).toISOString();
  const [requests, attempts, hooks] = await Promise.all([
    rawQuery(
      db,
      `select seq, installation_id, method, path, status, duration_ms, api_version, at
         from app_api_requests where app_id = $1 and seq > $2 order by seq limit 500`,
      [appId, c.seq],
    ),
    rawQuery(
      db,
      `select a.id, a.created_at, a.attempt_no, a.success, a.status_code, a.duration_ms, a.error,
              d.id as delivery_id, d.event, d.installation_id, d.api_version
         from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
        where a.app_id = $1 and a.created_at > $2::timestamptz order by a.created_at limit 500`,
      [appId, attemptsFrom],
    ),
    rawQuery(
      db,
      `select id, created_at, installation_id, hook_point, success, status_code, duration_ms, error
         from hook_calls where app_id = $1 and created_at > $2::timestamptz order by created_at limit 500`,
      [appId, hooksFrom],
    ),
  ]);
  const lines: LogLine[] = [];
  for (const r of requests as Record<string, unknown>[]) {
    c.seq = Math.max(c.seq, Number(r.seq));
    lines.push({
      kind: "request",
      id: `req_${r.seq}`,
      at: iso(r.at),
      installationId: String(r.installation_id),
      method: String(r.method),
      path: String(r.path),
      status: Number(r.status),
      durationMs: Number(r.duration_ms),
      apiVersion: String(r.api_version),
    });
  }
  const fresh = (id: string, at: string) => {
    if (c.seen.has(id)) return false;
    c.seen.set(id, Date.parse(at));
    return true;
  };
  for (const r of attempts as Record<string, unknown>[]) {
    const at = iso(r.created_at);
    if (Date.parse(at) > c.attemptsAt.getTime()) c.attemptsAt = new Date(at);
    if (!fresh(String(r.id), at)) continue;
    lines.push({
      kind: "delivery",
      id: String(r.id),
      at,
      installationId: String(r.installation_id),
      deliveryId: String(r.delivery_id),
      event: String(r.event),
      attempt: Number(r.attempt_no),
      success: Boolean(r.success),
      status: r.status_code === null ? null : Number(r.status_code),
      durationMs: r.duration_ms === null ? null : Number(r.duration_ms),
      error: (r.error as string | null) ?? null,
      apiVersion: String(r.api_version),
    });
  }
  for (const r of hooks as Record<string, unknown>[]) {
    const at = iso(r.created_at);
    if (Date.parse(at) > c.hooksAt.getTime()) c.hooksAt = new Date(at);
    if (!fresh(String(r.id), at)) continue;
    lines.push({
      kind: "hook",
      id: String(r.id),
      at,
      installationId: String(r.installation_id),
      hookPoint: String(r.hook_point),
      success: Boolean(r.success),
      status: r.status_code === null ? null : Number(r.status_code),
      durationMs: Number(r.duration_ms),
      error: (r.error as string | null) ?? null,
    });
  }
  // ids are remembered only as long as the overlap can bring them back
  const forget = Math.min(c.attemptsAt.getTime(), c.hooksAt.getTime()) - 2 * OVERLAP_MS;
  for (const [id, at] of c.seen) if (at < forget) c.seen.delete(id);
  return lines.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** Where a stream starts: `since` (at most REPLAY_MS back) replays from then; without it, from now. */
async function startCursor(db: Db, appId: string, since: Date | null): Promise<Cursor> {
  const t = platformNow().getTime();
  const from = since ? new Date(Math.max(since.getTime(), t - REPLAY_MS)) : new Date(t);
  const [row] = (await rawQuery(
    db,
    `select coalesce(max(seq), 0) as seq from app_api_requests where app_id = $1 and at < $2::timestamptz`,
    [appId, from.toISOString()],
  )) as { seq: string | number }[];
  // without `since`, only what comes next: the request log's cursor at its end
  const seq = since
    ? Number(row?.seq ?? 0)
    : Number(
        (
          (await rawQuery(db, `select coalesce(max(seq), 0) as seq from app_api_requests where app_id = $1`, [
            appId,
          ])) as { seq: string | number }[]
        )[0]?.seq ?? 0,
      );
  return { seq, attemptsAt: from, hooksAt: from, seen: new Map() };
}

/**
 * Opens an app's log stream: `send(line)` for each line after `since` (replayed first), then for
 * each new one as it is written, polling every POLL_MS until `close()`.
 */
export async function openLogStream(
  db: Db,
  appId: string,
  since: Date | null,
  send: (line: LogLine) => void,
): Promise<() => void> {
  const cursor = await startCursor(db, appId, since);
  // the overlap would bring back what happened just before the start: seen already
  if (!since) {
    for (const line of await readLines(db, appId, { ...cursor, seq: Number.MAX_SAFE_INTEGER }))
      cursor.seen.set(line.id, Date.parse(line.at));
  }
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  const tick = async () => {
    if (closed) return;
    try {
      for (const line of await readLines(db, appId, cursor)) if (!closed) send(line);
    } catch (e) {
      console.error("[devtools] logs stream:", (e as Error).message);
    }
    if (!closed) timer = setTimeout(() => void tick(), POLL_MS);
  };
  await tick();
  return () => {
    closed = true;
    if (timer) clearTimeout(timer);
  };
}

/** `?since=` as a date (400 when it is not one). */
export function parseSince(value: string | null): Date | null {
  if (value === null || value === "") return null;
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw new ApiError(400, "since: must be an ISO 8601 time, e.g. 2026-11-28T10:00:00Z");
  return new Date(t);
}

export const HEARTBEAT_MS = 15_000;

/**
 * The stream as Server-Sent Events: `ready` ({appId, since}) once, then `log` (a LogLine) per line,
 * and `ping` ({at}) every HEARTBEAT_MS; it stops when the client goes.
 */
export function logStreamResponse(request: Request, db: Db, appId: string, since: Date | null): Response {
  return eventStreamResponse(request, async (send) => {
    send("ready", { appId, since: since?.toISOString() ?? null });
    const close = await openLogStream(db, appId, since, (line) => send("log", line));
    const heartbeat = setInterval(() => send("ping", { at: platformNow().toISOString() }), HEARTBEAT_MS);
    heartbeat.unref();
    return () => {
      clearInterval(heartbeat);
      close();
    };
  });
}
