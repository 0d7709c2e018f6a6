/**
 * Platform events. A domain change calls emitEvent(tx, …) inside its own transaction: the event
 * row and its fan-out job commit or roll back with the change (contract 7).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { platformEvents } from "../../../db/schema";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { isSubscribable } from "../shapes/app-catalog";
import { rawQuery, textArray } from "../../../db/sql";
import { writeDeliveries, type FannedEvent } from "../webhooks/fanout.server";
import type { EventInput } from "../shapes/events";

export type { EventInput } from "../shapes/events";
export { event } from "../shapes/events";

/** An event as written to platform_events: what the fan-out reads (one type for both). */
export type EmittedEvent = FannedEvent;

/**
 * Who the events of a piece of work may reach (storefront-apps trigger, decision 035): events of
 * `events` go to `installationId`'s registrations only, every other event is recorded and sent to
 * nobody (audience "none"). The audience is written on the event row, so the fan-out job and the
 * sweeper honour it too. Outside `withEventAudience` (every real change) events have no audience.
 */
type Audience = { installationId: string; events: readonly string[]; emitted: EmittedEvent[]; open: boolean };
const audiences = new AsyncLocalStorage<Audience>();
export const NOBODY = "none";

/**
 * Runs `work` (real changes through the domains' own functions) with its events restricted; returns
 * its result and the events it emitted for the installation.
 */
export async function withEventAudience<T>(
  audience: { installationId: string; events: readonly string[] },
  work: () => Promise<T>,
): Promise<{ result: T; emitted: EmittedEvent[] }> {
  const store: Audience = { ...audience, emitted: [], open: true };
  try {
    const result = await audiences.run(store, work);
    return { result, emitted: store.emitted };
  } finally {
    // work the change left running (a dispatcher woken inside it) keeps the context: it no longer applies
    store.open = false;
  }
}

/** The audience of an event of this type emitted now: null (every subscriber), an installation id, or "none". */
export function audienceOf(type: string): string | null {
  const store = audiences.getStore();
  if (!store?.open) return null;
  return store.events.includes(type) ? store.installationId : NOBODY;
}

/** The audience of each of these types as a JSON object (a statement's jsonb parameter), or null outside a restricted piece of work. */
export function audiencesJson(types: readonly string[]): string | null {
  const store = audiences.getStore();
  if (!store?.open) return null;
  return JSON.stringify(Object.fromEntries(types.map((t) => [t, audienceOf(t)])));
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

/** A new event: its id, its time (see eventTime) and its audience (see withEventAudience). */
export function eventRow(event: EventInput, createdAt: Date = eventTime()): EmittedEvent {
  const row: EmittedEvent = {
    id: newId("evt"),
    businessId: event.businessId,
    type: event.type,
    data: event.data,
    audience: audienceOf(event.type),
    createdAt,
  };
  const store = audiences.getStore();
  if (store?.open && row.audience === store.installationId) store.emitted.push(row);
  return row;
}

/**
 * The insert of an event fanned out in the same statement or transaction, as a CTE `ev` for statements
 * that write it with other rows (the checkout's order statement); its six parameters (`eventParams`)
 * are numbered from `first`.
 */
export function eventCte(first: number): string {
  const p = (i: number) => `$${first + i}`;
  return `ev as (insert into platform_events (id, business_id, type, data, fanned_out_at, created_at, audience)
    values (${p(0)}, ${p(1)}, ${p(2)}, ${p(3)}::jsonb, ${p(4)}::timestamptz, ${p(4)}::timestamptz, ${p(5)}::text) returning id)`;
}

export const eventParams = (row: EmittedEvent): unknown[] => [
  row.id,
  row.businessId,
  row.type,
  JSON.stringify(row.data),
  row.createdAt.toISOString(),
  row.audience ?? null,
];

const EVENT_SQL = `with ${eventCte(1)} select 1`;

/**
 * Records an event. Events registrations subscribe to are fanned out at once, in the caller's
 * transaction (one delivery per subscribed registration, with its first-attempt job); the others
 * (app.uninstalled, whose delivery its sender writes itself) are only recorded. `data` has the
 * event's declared shape (events/schemas.ts).
 */
export async function emitEvent(db: Db, event: EventInput): Promise<EmittedEvent> {
  const row = eventRow(event);
  const fansOut = isSubscribable(event.type) && row.audience !== NOBODY;
  // Fanned out here, in the transaction of the change: the deliveries and their first-attempt jobs
  // commit with it (one job hop between commit and the POST, no fan-out job). The event row and the
  // registrations' read are sent together (one round trip); internal events have nothing to fan out.
  const insert = rawQuery(db, EVENT_SQL, eventParams(row));
  if (fansOut) await Promise.all([insert, writeDeliveries(db, [row], row.createdAt)]);
  else await insert;
  return row;
}

/** Many events in one go (bulk changes, imports): one insert, and one add_jobs call queueing a fan-out job per 100 events. */
export async function emitEvents(db: Db, events: EventInput[]): Promise<EmittedEvent[]> {
  if (events.length === 0) return [];
  const t = now();
  const rows = events.map((e) => eventRow(e, t));
  await db
    .insert(platformEvents)
    .values(rows.map((r) => ({ ...r, fannedOutAt: isSubscribable(r.type) && r.audience !== NOBODY ? null : t })));
  const fan = rows.filter((r) => isSubscribable(r.type) && r.audience !== NOBODY).map((r) => r.id);
  // one fan-out job per 100 events
  if (fan.length)
    await db.execute(sql`select graphile_worker.add_jobs((
      select array_agg(row('event__fanout', json_build_object('eventIds', ids), null, null, null, null, null, null)::graphile_worker.job_spec)
      from (select json_agg(id) as ids from unnest(${textArray(fan)}) with ordinality as u(id, n) group by (n - 1) / 100) b))`);
  return rows;
}
