/**
 * Fan-out: for each event, one delivery per subscribed active registration of an active installation
 * whose scopes cover the event, in the caller's transaction, with a NOTIFY that wakes the dispatchers
 * when it commits. Used by emitEvent (inline, in the transaction that makes the change: no job
 * between the commit and the POST) and by the fan-out job (bulk emits, the sweeper).
 * It imports nothing of the events module, which calls it.
 */
import { rawQuery } from "../../../db/sql";
import type { Db } from "../../../db/client";
import { newId } from "../core/ids.server";
import { createWaker } from "../core/wake.server";
import { eventAllowed } from "../shapes/app-catalog";
import { VERSIONING } from "../versions/changes";
import { renderVersion } from "../versions/registry";

/** Deliveries one retry or redelivery job may name (jobs queued by earlier versions named up to 10 first attempts). */
export const DELIVERY_BATCH = 10;
/** The channel a transaction that writes deliveries notifies; dispatchers listen on it. */
export const DELIVERIES_CHANNEL = "webhook_deliveries";

export function envelope(input: {
  id: string;
  event: string;
  timestamp: Date;
  webhookId: string;
  businessId: string;
  /** the API version `data` is rendered in (contract 12: the envelope names it) */
  apiVersion: string;
  data: Record<string, unknown>;
}) {
  return JSON.stringify({
    id: input.id,
    event: input.event,
    timestamp: input.timestamp.toISOString(),
    webhookId: input.webhookId,
    businessId: input.businessId,
    apiVersion: input.apiVersion,
    data: input.data,
  });
}

export type FannedEvent = {
  id: string;
  type: string;
  businessId: string;
  data: Record<string, unknown>;
  /** null: every subscribed registration; an installation id: only its registrations; "none": nobody (decision 035) */
  audience?: string | null;
  createdAt: Date;
};

/**
 * The active registrations of active installations of the businesses `ids` (an SQL text[] expression),
 * with what a delivery needs of them.
 */
export const targetsSelect = (ids: string) => `
  select w.id, w.business_id as "businessId", w.app_id as "appId", w.events, i.id as "installationId", i.scopes, i.is_test_install as "isTestInstall", a.api_version as "apiVersion"
  from webhooks w join installations i on i.id = w.installation_id join apps a on a.id = w.app_id
  where w.business_id = any(${ids}) and w.is_active and i.status = 'ACTIVE'`;
const TARGETS_SQL = targetsSelect("$1::text[]");

export type Target = {
  id: string;
  businessId: string;
  appId: string;
  events: string[];
  installationId: string;
  scopes: string[];
  isTestInstall: boolean;
  /** the app's pinned API version */
  apiVersion: string;
};

/** The registrations events of these businesses may go to (read once; `deliveryRows` picks per event). */
export function readTargets(db: Db, businessIds: string[]): Promise<Target[]> {
  return rawQuery<Target>(db, TARGETS_SQL, [businessIds]);
}

export type DeliveryRow = {
  id: string;
  eventId: string;
  event: string;
  webhookId: string;
  installationId: string;
  appId: string;
  businessId: string;
  isTestInstall: boolean;
  body: string;
  apiVersion: string;
};

/** One delivery of an event to a registration: its body the envelope with the event's data in `apiVersion`. */
function deliveryRow(
  event: FannedEvent,
  w: DirectTarget,
  apiVersion: string,
  dataIn: (version: string) => unknown,
): DeliveryRow {
  const id = newId("dlv");
  return {
    id,
    eventId: event.id,
    event: event.type,
    webhookId: w.id,
    installationId: w.installationId,
    appId: w.appId,
    businessId: event.businessId,
    isTestInstall: w.isTestInstall,
    apiVersion,
    body: envelope({
      id,
      event: event.type,
      timestamp: event.createdAt,
      webhookId: w.id,
      businessId: event.businessId,
      apiVersion,
      data: dataIn(apiVersion) as Record<string, unknown>,
    }),
  };
}

/**
 * One delivery per event and subscribed registration whose installation holds the event's scope,
 * with its body as it will be sent: the event's data (newest shape) rendered in the app's pinned API
 * version at this moment (decision 041), once per version an event goes out in.
 */
export function deliveryRows(events: FannedEvent[], targets: Target[], t: Date): DeliveryRow[] {
  return events.flatMap((event) => {
    const rendered = new Map<string, Record<string, unknown>>();
    const dataIn = (version: string): Record<string, unknown> => {
      let data = rendered.get(version);
      if (!data)
        rendered.set(version, (data = VERSIONING.event(event.type, event.data, version) as Record<string, unknown>));
      return data;
    };
    return targets
      .filter(
        (w) =>
          w.businessId === event.businessId &&
          w.events.includes(event.type) &&
          eventAllowed(event.type, w.scopes) &&
          (event.audience == null || event.audience === w.installationId),
      )
      .map((w) => deliveryRow(event, w, renderVersion(w.apiVersion, t), dataIn));
  });
}

/**
 * The deliveries' insert (`d`) and the dispatchers' wake-up (`woken`) as two CTEs, for statements
 * that write deliveries with other rows. Their eleven parameters are numbered from `first`, in the
 * order of `deliveryParams`. `notify`: the wake-up is a NOTIFY sent at commit (inside any
 * transaction); without it (`woken` counts nothing) the caller wakes the dispatchers itself once the
 * statement has committed (`wakeDispatchers`): the checkout's order statement does so, because
 * PostgreSQL orders every committing transaction that notifies behind one lock held through its
 * commit's flush, which would make orders of every business queue on each other's disk writes.
 */
export function deliveriesCtes(first: number, options: { notify: boolean } = { notify: true }): string {
  const p = (i: number) => `$${first + i}`;
  return `d as (
    insert into webhook_deliveries (id, event_id, event, webhook_id, installation_id, app_id, business_id, is_test_install, body, api_version, status, next_attempt_at, created_at, updated_at)
    select u.id, u.event_id, u.event, u.webhook_id, u.installation_id, u.app_id, u.business_id, u.is_test_install::boolean, u.body, u.api_version, 'PENDING', ${p(9)}::timestamptz, ${p(9)}::timestamptz, ${p(9)}::timestamptz
    from unnest(${p(0)}::text[], ${p(1)}::text[], ${p(2)}::text[], ${p(3)}::text[], ${p(4)}::text[], ${p(5)}::text[], ${p(6)}::text[], ${p(7)}::text[], ${p(8)}::text[], ${p(10)}::text[])
      as u(id, event_id, event, webhook_id, installation_id, app_id, business_id, is_test_install, body, api_version)
    on conflict do nothing
    returning id),
  woken as (select ${options.notify ? `pg_notify('${DELIVERIES_CHANNEL}', '')` : "null"} as n where exists (select 1 from d))`;
}

const dispatchers = createWaker(DELIVERIES_CHANNEL);
/** Registers a dispatcher of this process (woken at once by wakeDispatchers, without a NOTIFY). */
export const onLocalWake = dispatchers.onLocal;
/**
 * Wakes the dispatchers after deliveries were committed outside a NOTIFYing transaction: this
 * process's own at once, or every worker's through a NOTIFY of its own (core/wake.server.ts).
 */
export const wakeDispatchers = (db: Db) => dispatchers.wake(db);

export function deliveryParams(rows: DeliveryRow[], t: Date): unknown[] {
  const col = <K extends keyof DeliveryRow>(k: K) => rows.map((r) => r[k]);
  return [
    col("id"),
    col("eventId"),
    col("event"),
    col("webhookId"),
    col("installationId"),
    col("appId"),
    col("businessId"),
    col("isTestInstall").map(String),
    col("body"),
    t.toISOString(),
    col("apiVersion"),
  ];
}

/**
 * The deliveries, and a wake-up for the dispatchers, in one statement. Their first attempts are
 * claimed from the table by the dispatcher (dispatcher.server.ts, decision 019).
 */
const DELIVERIES_SQL = `with ${deliveriesCtes(1)}
  select (select count(*) from d)::int as written, (select count(*) from woken)::int as woken`;

/** A registration an event goes to without a subscription (catalog DIRECT_EVENTS). */
export type DirectTarget = Pick<Target, "id" | "installationId" | "appId" | "isTestInstall" | "apiVersion">;

/**
 * An event of the DIRECT_EVENTS (recorded by emitEvent, which fans none of them out) to the
 * registrations its sender chose: one delivery each, signed and retried like any other, written in
 * the caller's transaction with the dispatchers' wake-up at commit. `data` is what the body carries
 * (the event's declared shape) when it differs from the recorded row's (app.uninstalled records
 * contract 4's fields, sends contract 14's). Returns the deliveries.
 */
export async function writeDirectDeliveries(
  tx: Db,
  event: FannedEvent,
  targets: DirectTarget[],
  data: (target: DirectTarget) => Record<string, unknown> = () => event.data,
): Promise<DeliveryRow[]> {
  // rendered in the app's API version, like every delivery (contract 12)
  const rows = targets.map((w) =>
    deliveryRow(event, w, renderVersion(w.apiVersion, event.createdAt), (version) =>
      VERSIONING.event(event.type, data(w), version),
    ),
  );
  if (rows.length) await rawQuery(tx, DELIVERIES_SQL, deliveryParams(rows, event.createdAt));
  return rows;
}

/** The install registration of an installation (created at install from the app's webhookUrl), active or not. */
export async function installRegistration(tx: Db, installationId: string): Promise<DirectTarget | undefined> {
  const [row] = await rawQuery<DirectTarget>(
    tx,
    `select w.id, w.installation_id as "installationId", w.app_id as "appId", i.is_test_install as "isTestInstall",
       a.api_version as "apiVersion"
     from webhooks w join installations i on i.id = w.installation_id join apps a on a.id = w.app_id
     where w.installation_id = $1 and w.is_install_default`,
    [installationId],
  );
  return row;
}

/**
 * Writes the events' deliveries and wakes the dispatchers (at commit); returns how many were written.
 * Hand-written statements (rawQuery): this runs inside every order's transaction (issue 16).
 */
export async function writeDeliveries(tx: Db, events: FannedEvent[], t: Date): Promise<number> {
  if (events.length === 0) return 0;
  const rows = deliveryRows(events, await readTargets(tx, [...new Set(events.map((e) => e.businessId))]), t);
  let written = 0;
  for (let i = 0; i < rows.length; i += 1000) {
    const [result] = await rawQuery<{ written: number }>(
      tx,
      DELIVERIES_SQL,
      deliveryParams(rows.slice(i, i + 1000), t),
    );
    written += result.written;
  }
  return written;
}
