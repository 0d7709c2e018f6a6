/**
 * Platform events. A domain change calls emitEvent(tx, …) inside its own transaction: the event
 * row and its fan-out job commit or roll back with the change (contract 7).
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { platformEvents } from "../../../db/schema";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { EVENTS } from "../apps/catalog";
import { rawQuery, textArray } from "../../../db/sql";
import { writeDeliveries, type FannedEvent } from "../webhooks/fanout.server";

/** An event as written to platform_events: what the fan-out reads (one type for both). */
export type EmittedEvent = FannedEvent;

/** Adds a graphile-worker job through the same connection (and so the same transaction). */
export async function addJob(
  db: Db,
  task: string,
  payload: Record<string, unknown>,
  options: { runAt?: Date; jobKey?: string; maxAttempts?: number } = {},
) {
  await db.execute(sql`select graphile_worker.add_job(
    ${task}, ${JSON.stringify(payload)}::json,
    run_at => ${options.runAt ? options.runAt.toISOString() : null}::timestamptz,
    job_key => ${options.jobKey ?? null}::text,
    max_attempts => ${options.maxAttempts ?? 25}::int)`);
}

export async function removeJob(db: Db, jobKey: string) {
  await db.execute(sql`select graphile_worker.remove_job(${jobKey})`);
}

/**
 * Event times strictly increase within a process (a millisecond apart at least), so that events of
 * one change (product.updated, then product.out_of_stock) keep their order for readers of the log.
 * A clock set back (tests) by more than a second starts afresh.
 */
let lastEventAt = 0;
export function eventTime(): Date {
  const t = now().getTime();
  lastEventAt = t > lastEventAt || lastEventAt - t > 1000 ? t : lastEventAt + 1;
  return new Date(lastEventAt);
}

/** A new event: its id and its time (see eventTime). */
export function eventRow(event: { businessId: string; type: string; data: Record<string, unknown> }): EmittedEvent {
  return { id: newId("evt"), businessId: event.businessId, type: event.type, data: event.data, createdAt: eventTime() };
}

/**
 * The insert of an event fanned out in the same statement or transaction, as a CTE `ev` for statements
 * that write it with other rows (the checkout's order statement); its five parameters (`eventParams`)
 * are numbered from `first`.
 */
export function eventCte(first: number): string {
  const p = (i: number) => `$${first + i}`;
  return `ev as (insert into platform_events (id, business_id, type, data, fanned_out_at, created_at)
    values (${p(0)}, ${p(1)}, ${p(2)}, ${p(3)}::jsonb, ${p(4)}::timestamptz, ${p(4)}::timestamptz) returning id)`;
}

export const eventParams = (row: EmittedEvent): unknown[] => [
  row.id,
  row.businessId,
  row.type,
  JSON.stringify(row.data),
  row.createdAt.toISOString(),
];

const EVENT_SQL = `with ${eventCte(1)} select 1`;

/**
 * Records an event. Events of the public catalogue are fanned out at once, in the caller's
 * transaction (one delivery per subscribed registration, with its first-attempt job); internal
 * events (app.uninstalled) are only recorded.
 */
export async function emitEvent(
  db: Db,
  event: { businessId: string; type: string; data: Record<string, unknown> },
): Promise<EmittedEvent> {
  const fansOut = event.type in EVENTS;
  const row = eventRow(event);
  // Fanned out here, in the transaction of the change: the deliveries and their first-attempt jobs
  // commit with it (one job hop between commit and the POST, no fan-out job). The event row and the
  // registrations' read are sent together (one round trip); internal events have nothing to fan out.
  const insert = rawQuery(db, EVENT_SQL, eventParams(row));
  if (fansOut) await Promise.all([insert, writeDeliveries(db, [row], row.createdAt)]);
  else await insert;
  return row;
}

/** Many events in one go (bulk changes, imports): one insert, and one add_jobs call queueing a fan-out job per 100 events. */
export async function emitEvents(
  db: Db,
  events: { businessId: string; type: string; data: Record<string, unknown> }[],
): Promise<EmittedEvent[]> {
  if (events.length === 0) return [];
  const t = now();
  const rows = events.map((e) => ({
    id: newId("evt"),
    businessId: e.businessId,
    type: e.type,
    data: e.data,
    createdAt: t,
  }));
  await db.insert(platformEvents).values(rows.map((r) => ({ ...r, fannedOutAt: r.type in EVENTS ? null : t })));
  const fan = rows.filter((r) => r.type in EVENTS).map((r) => r.id);
  // one fan-out job per 100 events
  if (fan.length)
    await db.execute(sql`select graphile_worker.add_jobs((
      select array_agg(row('event__fanout', json_build_object('eventIds', ids), null, null, null, null, null, null)::graphile_worker.job_spec)
      from (select json_agg(id) as ids from unnest(${textArray(fan)}) with ordinality as u(id, n) group by (n - 1) / 100) b))`);
  return rows;
}
