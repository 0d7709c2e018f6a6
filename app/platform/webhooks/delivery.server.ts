/**
 * Deliveries: fan-out of an event to registrations, one attempt per job with an explicit run_at,
 * a log row per attempt, the retry schedule, auto-disable, the sweeper, and the erasure webhook.
 * The deliveries table is the source of truth; jobs only say "try this delivery now".
 */
import { notifyWebhookDisabled } from "../mail/notices.server";
import { OLDEST_VERSION, renderVersion } from "../versions/registry";
import { VERSIONING } from "../app-api/version-changes";
import { and, eq, inArray, or, sql } from "drizzle-orm";
import { intArray, readColumns, selectColumns, textArray } from "../../../db/sql";
import type { Database, Db } from "../../../db/client";
import {
  apps,
  installations,
  platformEvents,
  webhookAttempts,
  type Installation,
  webhookDeliveries,
  webhooks,
  type Webhook,
  type WebhookDelivery,
} from "../../../db/schema";
import type { Env } from "../core/env.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { decrypt } from "../core/crypto.server";
import { addJob, emitEvent, event } from "../events/emit.server";
import type { EventData } from "../events/schemas";
import { signWebhook } from "./verify";
import {
  DELIVERIES_CHANNEL,
  envelope,
  installRegistration,
  writeDeliveries,
  writeDirectDeliveries,
  type DeliveryRow,
} from "./fanout.server";
export { DELIVERY_BATCH, envelope } from "./fanout.server";
import { postOutbound, type OutboundResult } from "./outbound.server";
import { relayIfListening } from "../devtools/relay.server";
import { MANDATORY_EVENTS } from "../apps/catalog";
import type { EventInput } from "../events/schemas";

/** Delays after each failed attempt: 30 s, 2 min, 8 min, 32 min, 2 h; 6 attempts in all. */
export const RETRY_DELAYS_MS = [30_000, 120_000, 480_000, 1_920_000, 7_200_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const DELIVERY_TIMEOUT_MS = 10_000;
export const AUTO_DISABLE_AFTER = 5;
/**
 * An attempt in flight longer than WORKER_STRANDED_AFTER_MS was abandoned by a dead worker (the one
 * setting for stranded work, issue 25), but never sooner than this: a live attempt may take up to
 * its 10 s deadline and the recording after it, and taking it back earlier would send it twice.
 */
export const MIN_STALE_IN_FLIGHT_MS = DELIVERY_TIMEOUT_MS + 5_000;
export const staleInFlightMs = (strandedAfterMs: number) => Math.max(strandedAfterMs, MIN_STALE_IN_FLIGHT_MS);
export const USER_AGENT = "Service-Webhooks/1.0";

/** Events one fan-out job claims: its own, and others still waiting (work-stealing during a burst). */
export const FANOUT_BATCH = 200;

/**
 * Fans out events: for each, one delivery per subscribed active registration of an active
 * installation with the event's scope, and first-attempt jobs of up to DELIVERY_BATCH deliveries
 * each, in one transaction. Idempotent: an event is claimed once (fanned_out_at), so a re-queued
 * or stolen event is never fanned out twice. With `steal`, the job also claims up to that many
 * other waiting events, skipping any another fan-out holds, so a burst of events costs a handful
 * of fan-out transactions instead of one per event. Returns the number of deliveries written.
 */
export async function fanOut(
  db: Database,
  eventIds: string | string[],
  options: { steal?: number } = {},
): Promise<number> {
  const ids = typeof eventIds === "string" ? [eventIds] : eventIds;
  return db.transaction(async (tx) => {
    const t = now();
    const claimed = await tx.execute<Record<string, unknown>>(sql`
      with mine as (select id from platform_events where id = any(${textArray(ids)}) and fanned_out_at is null for update skip locked),
      waiting as (select id from platform_events where fanned_out_at is null order by created_at limit ${options.steal ?? 0} for update skip locked)
      update platform_events e set fanned_out_at = ${t.toISOString()}::timestamptz
      where e.id in (select id from mine union select id from waiting)
      returning ${sql.raw(selectColumns(platformEvents, "e"))}`);
    const events = claimed.map((row) => readColumns(platformEvents, "e", row));
    if (events.length === 0) return 0;
    return writeDeliveries(tx, events, t);
  });
}

function headersFor(
  delivery: Pick<WebhookDelivery, "id" | "event" | "webhookId" | "apiVersion">,
  secret: string,
  body: string,
) {
  const timestamp = Math.floor(now().getTime() / 1000).toString();
  return {
    "Api-Version": delivery.apiVersion,
    "X-Webhook-Id": delivery.webhookId,
    "X-Webhook-Event": delivery.event,
    "X-Webhook-Signature": signWebhook(secret, timestamp, body),
    "X-Webhook-Timestamp": timestamp,
    "X-Service-Event-Id": delivery.id,
    "User-Agent": USER_AGENT,
  };
}

export const ROLLUP_SHARDS = 8;

async function rollup(db: Db, appId: string, at: Date, result: OutboundResult) {
  const day = at.toISOString().slice(0, 10);
  const answered = result.statusCode !== null ? 1 : 0;
  const shard = Math.floor(Math.random() * ROLLUP_SHARDS);
  await db.execute(sql`
    insert into webhook_daily_stats (app_id, day, shard, succeeded, failed, answered, latency_total_ms)
    values (${appId}, ${day}, ${shard}, ${result.ok ? 1 : 0}, ${result.ok ? 0 : 1}, ${answered}, ${answered ? result.durationMs : 0})
    on conflict (app_id, day, shard) do update set
      succeeded = webhook_daily_stats.succeeded + excluded.succeeded,
      failed = webhook_daily_stats.failed + excluded.failed,
      answered = webhook_daily_stats.answered + excluded.answered,
      latency_total_ms = webhook_daily_stats.latency_total_ms + excluded.latency_total_ms`);
}

export type AttemptRequest = { deliveryId: string; after?: number };
/** One attempt of one delivery (see attemptDeliveries). */
export async function attemptDelivery(
  db: Database,
  env: Env,
  deliveryId: string,
  options: { manual?: boolean; after?: number } = {},
): Promise<"sent" | "skipped"> {
  const sent = await attemptDeliveries(db, env, [{ deliveryId, after: options.after }], { manual: options.manual });
  return sent ? "sent" : "skipped";
}

/**
 * One attempt of each delivery. Claimed atomically (no two workers send the same attempt; a job
 * made for attempt n+1 does nothing once that attempt happened, so a duplicate job never sends
 * early), signed with the registration's secret, sent in parallel, logged, then SUCCEEDED,
 * scheduled again, or FAILED. Plain successes are recorded together in one statement. A manual
 * attempt (redeliver) schedules no retries of its own. Returns how many were sent.
 */
export async function attemptDeliveries(
  db: Database,
  env: Env,
  requests: AttemptRequest[],
  options: { manual?: boolean } = {},
): Promise<number> {
  if (requests.length === 0) return 0;
  const t = now();
  const staleBefore = new Date(t.getTime() - staleInFlightMs(env.workerStrandedAfterMs));
  const statuses: WebhookDelivery["status"][] = options.manual
    ? ["PENDING", "RETRYING", "FAILED", "SUCCEEDED"]
    : ["PENDING", "RETRYING"];
  const exact = options.manual ? [] : requests.filter((r) => r.after !== undefined);
  const any = options.manual ? requests : requests.filter((r) => r.after === undefined);
  const which = [
    exact.length
      ? sql`(${webhookDeliveries.id}, ${webhookDeliveries.attempts}) in (select * from unnest(${textArray(exact.map((r) => r.deliveryId))}, ${intArray(exact.map((r) => r.after!))}))`
      : undefined,
    any.length
      ? inArray(
          webhookDeliveries.id,
          any.map((r) => r.deliveryId),
        )
      : undefined,
  ].filter(Boolean);
  const claimed = await db
    .update(webhookDeliveries)
    .set({ inFlightSince: t })
    .where(
      and(
        which.length === 1 ? which[0] : or(...which),
        inArray(webhookDeliveries.status, statuses),
        sql`(${webhookDeliveries.inFlightSince} is null or ${webhookDeliveries.inFlightSince} < ${staleBefore.toISOString()}::timestamptz)`,
      ),
    )
    .returning();
  if (claimed.length === 0) return 0;
  const registrations = new Map(
    (
      await db
        .select()
        .from(webhooks)
        .where(inArray(webhooks.id, [...new Set(claimed.map((d) => d.webhookId))]))
    ).map((w) => [w.id, w]),
  );
  const results = await sendClaimed(
    db,
    env,
    claimed.map((delivery) => ({ delivery, webhook: registrations.get(delivery.webhookId) ?? null })),
    options.manual ?? false,
  );
  await recordResults(db, results, options.manual ?? false);
  return results.filter((r) => r.result !== null).length;
}

/** What sending a delivery needs of its registration. */
export type DeliveryTarget = Pick<Webhook, "id" | "url" | "secretEnc" | "isActive" | "consecutiveFailures">;
export type ClaimedDelivery = { delivery: WebhookDelivery; webhook: DeliveryTarget | null };
/** A claimed delivery after its attempt; `result` null: dropped (its registration is gone or inactive). */
export type AttemptResult = {
  delivery: WebhookDelivery;
  webhook: DeliveryTarget | null;
  result: OutboundResult | null;
};

/**
 * Whether a claimed delivery is still to be sent: its registration exists and is active (an erasure,
 * a shopper's privacy request or a manual redelivery goes anyway).
 */
function sendable({ delivery, webhook }: ClaimedDelivery, manual: boolean): boolean {
  return !!webhook && (webhook.isActive || MANDATORY_EVENTS.includes(delivery.event) || manual);
}

/** Signs and sends one claimed delivery with the registration's secret (decrypted once per call site through `secretOf`). */
export async function sendOne(
  db: Db,
  env: Env,
  delivery: WebhookDelivery,
  webhook: DeliveryTarget,
  secret: string,
): Promise<OutboundResult> {
  const headers = headersFor(delivery, secret, delivery.body);
  // `storefront-apps listen` (decision 023): a test installation's delivery goes to the developer's CLI while it listens
  const relayed = await relayIfListening(db, {
    appId: delivery.appId,
    isTestInstall: delivery.isTestInstall,
    kind: "webhook",
    path: "",
    headers,
    body: delivery.body,
    timeoutMs: DELIVERY_TIMEOUT_MS,
  });
  if (relayed) return relayed;
  return postOutbound(webhook.url, delivery.body, headers, {
    timeoutMs: DELIVERY_TIMEOUT_MS,
    allowPrivate: env.outboundAllowPrivate,
  });
}

/** Sends claimed deliveries in parallel (a job holds at most DELIVERY_BATCH); dropped ones come back with a null result. */
async function sendClaimed(db: Db, env: Env, claimed: ClaimedDelivery[], manual: boolean): Promise<AttemptResult[]> {
  const secrets = new Map<string, string>();
  const secretOf = (w: DeliveryTarget) =>
    secrets.get(w.id) ?? secrets.set(w.id, decrypt(w.secretEnc, env.encryptionKey)).get(w.id)!;
  return Promise.all(
    claimed.map(async (c) => ({
      ...c,
      result: sendable(c, manual) ? await sendOne(db, env, c.delivery, c.webhook!, secretOf(c.webhook!)) : null,
    })),
  );
}

/**
 * Records attempts: dropped deliveries FAILED, plain successes (no failure streak to reset, not an
 * erasure) together in one statement, every other outcome in its own transaction.
 */
export async function recordResults(db: Database, results: AttemptResult[], manual: boolean) {
  const dropped = results.filter((r) => r.result === null).map((r) => r.delivery.id);
  if (dropped.length)
    await db
      .update(webhookDeliveries)
      .set({ status: "FAILED", inFlightSince: null, nextAttemptAt: null, updatedAt: now() })
      .where(inArray(webhookDeliveries.id, dropped));
  const sent = results.filter(
    (r): r is AttemptResult & { webhook: DeliveryTarget; result: OutboundResult } =>
      r.result !== null && r.webhook !== null,
  );
  const plain = (r: (typeof sent)[number]) =>
    r.result.ok && r.webhook.consecutiveFailures === 0 && r.delivery.event !== "business.data_erasure";
  await recordSuccesses(db, sent.filter(plain));
  for (const r of sent.filter((x) => !plain(x))) await recordAttempt(db, r.delivery, r.webhook, r.result, manual);
}

/**
 * Plain successes in one atomic statement: their attempt rows, the analytics rollup (one row per
 * app on a random shard; test installs stay out of it), and the deliveries SUCCEEDED.
 */
async function recordSuccesses(db: Database, done: { delivery: WebhookDelivery; result: OutboundResult }[]) {
  if (done.length === 0) return;
  const t = now();
  const at = t.toISOString();
  const day = at.slice(0, 10);
  const stats = new Map<string, { n: number; answered: number; latency: number }>();
  for (const { delivery, result } of done) {
    if (delivery.isTestInstall) continue;
    const s = stats.get(delivery.appId) ?? { n: 0, answered: 0, latency: 0 };
    s.n++;
    if (result.statusCode !== null) {
      s.answered++;
      s.latency += result.durationMs;
    }
    stats.set(delivery.appId, s);
  }
  const rollup = stats.size
    ? sql`, stats as (
        insert into webhook_daily_stats (app_id, day, shard, succeeded, failed, answered, latency_total_ms)
        values ${sql.join(
          [...stats].map(
            ([appId, s]) =>
              sql`(${appId}, ${day}, ${Math.floor(Math.random() * ROLLUP_SHARDS)}, ${s.n}, 0, ${s.answered}, ${s.latency})`,
          ),
          sql`, `,
        )}
        on conflict (app_id, day, shard) do update set succeeded = webhook_daily_stats.succeeded + excluded.succeeded,
          answered = webhook_daily_stats.answered + excluded.answered, latency_total_ms = webhook_daily_stats.latency_total_ms + excluded.latency_total_ms)`
    : sql``;
  await db.execute(sql`
    with attempt as (
      insert into webhook_attempts (id, delivery_id, app_id, is_test_install, attempt_no, success, status_code, duration_ms, error, response_excerpt, created_at)
      values ${sql.join(
        done.map(
          ({ delivery: d, result: r }) =>
            sql`(${newId("att")}, ${d.id}, ${d.appId}, ${d.isTestInstall}, ${d.attempts + 1}, true, ${r.statusCode}::int, ${r.durationMs}::int, null, ${r.bodyExcerpt ?? null}, ${at}::timestamptz)`,
        ),
        sql`, `,
      )})
    ${rollup}
    update webhook_deliveries d set status = 'SUCCEEDED', attempts = v.attempts, last_status_code = v.code, last_duration_ms = v.ms,
      next_attempt_at = null, in_flight_since = null, updated_at = ${at}::timestamptz
    from (values ${sql.join(
      done.map(
        ({ delivery: d, result: r }) =>
          sql`(${d.id}, ${d.attempts + 1}::int, ${r.statusCode}::int, ${r.durationMs}::int)`,
      ),
      sql`, `,
    )}) as v(id, attempts, code, ms)
    where d.id = v.id`);
}

/** An attempt that failed, reset a failure streak, or delivered an erasure: its own transaction with every consequence. */
async function recordAttempt(
  db: Database,
  delivery: WebhookDelivery,
  webhook: DeliveryTarget,
  result: OutboundResult,
  manual: boolean,
) {
  await db.transaction(async (tx) => {
    const t = now();
    const attemptNo = delivery.attempts + 1;
    await tx.insert(webhookAttempts).values({
      id: newId("att"),
      deliveryId: delivery.id,
      appId: delivery.appId,
      isTestInstall: delivery.isTestInstall,
      attemptNo,
      success: result.ok,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: result.error ?? null,
      responseExcerpt: result.bodyExcerpt ?? null,
      createdAt: t,
    });
    if (!delivery.isTestInstall) await rollup(tx, delivery.appId, t, result);
    const base = {
      attempts: attemptNo,
      lastStatusCode: result.statusCode,
      lastDurationMs: result.durationMs,
      inFlightSince: null,
      updatedAt: t,
    };
    if (result.ok) {
      await tx
        .update(webhookDeliveries)
        .set({ ...base, status: "SUCCEEDED", nextAttemptAt: null })
        .where(eq(webhookDeliveries.id, delivery.id));
      // touch the registration row only when there is a failure streak to reset (no hot row on success)
      if (webhook.consecutiveFailures !== 0)
        await tx
          .update(webhooks)
          .set({ consecutiveFailures: 0 })
          .where(and(eq(webhooks.id, webhook.id), sql`${webhooks.consecutiveFailures} <> 0`));
      if (delivery.event === "business.data_erasure")
        await tx
          .update(installations)
          .set({ erasureDeliveredAt: t })
          .where(
            and(
              eq(installations.id, delivery.installationId),
              eq(installations.status, "UNINSTALLED"),
              sql`${installations.erasureDeliveredAt} is null`,
            ),
          );
      return;
    }
    if (manual) {
      await tx.update(webhookDeliveries).set(base).where(eq(webhookDeliveries.id, delivery.id));
      return;
    }
    if (attemptNo < MAX_ATTEMPTS) {
      const runAt = new Date(t.getTime() + RETRY_DELAYS_MS[attemptNo - 1]);
      // the dispatcher claims it when it is due, under its registration's cap (decision 024): no job
      await tx
        .update(webhookDeliveries)
        .set({ ...base, status: "RETRYING", nextAttemptAt: runAt })
        .where(eq(webhookDeliveries.id, delivery.id));
      return;
    }
    await tx
      .update(webhookDeliveries)
      .set({ ...base, status: "FAILED", nextAttemptAt: null })
      .where(eq(webhookDeliveries.id, delivery.id));
    const [counted] = await tx
      .update(webhooks)
      .set({ consecutiveFailures: sql`${webhooks.consecutiveFailures} + 1` })
      .where(eq(webhooks.id, webhook.id))
      .returning({ failures: webhooks.consecutiveFailures });
    if (counted && counted.failures >= AUTO_DISABLE_AFTER) {
      const [disabled] = await tx
        .update(webhooks)
        .set({ isActive: false, disabledReason: "consecutive_failures", updatedAt: t })
        .where(and(eq(webhooks.id, webhook.id), eq(webhooks.isActive, true)))
        .returning({ id: webhooks.id, appId: webhooks.appId, businessId: webhooks.businessId, url: webhooks.url });
      // the app's developer is told, with the last error and how to enable it again (contract 16)
      if (disabled)
        await notifyWebhookDisabled(tx, {
          webhookId: disabled.id,
          appId: disabled.appId,
          businessId: disabled.businessId,
          url: disabled.url,
          lastError: result.error ?? (result.statusCode ? `HTTP ${result.statusCode}` : ""),
          at: t,
        });
    }
  });
}

/** A job whose work has not happened this long after it was due was lost (its worker died holding it); WORKER_STRANDED_AFTER_MS's default. */
export const STRANDED_AFTER_MS = 60_000;

/**
 * Run every few seconds by every worker: (1) clears attempts left in flight by a worker that died, so
 * that the dispatcher claims them again (first attempts and retries are claimed from the table, under
 * their registration's cap: decision 024), and (2) re-queues events whose fan-out job was lost. The
 * work is idempotent (atomic claims, unique deliveries), so a job that was only slow, not lost, costs
 * nothing but a skipped run. Job keys keep the sweeper from piling up copies. A delivery whose due
 * time passed long ago needs nothing: it waits for its endpoint's slots, not for a job.
 */
export async function sweepAbandoned(db: Database, strandedAfterMs = STRANDED_AFTER_MS): Promise<number> {
  const t = now().getTime();
  const staleBefore = new Date(t - staleInFlightMs(strandedAfterMs)).toISOString();
  const strandedBefore = new Date(t - strandedAfterMs).toISOString();
  return db.transaction(async (tx) => {
    const stale = await tx
      .update(webhookDeliveries)
      .set({ inFlightSince: null })
      .where(
        and(
          inArray(webhookDeliveries.status, ["PENDING", "RETRYING"]),
          sql`${webhookDeliveries.inFlightSince} < ${staleBefore}::timestamptz`,
        ),
      )
      .returning({ id: webhookDeliveries.id });
    const unfanned = await tx.execute<{ id: string }>(sql`
      select id from platform_events where fanned_out_at is null and created_at < ${strandedBefore}::timestamptz order by created_at limit 500`);
    for (const e of unfanned) await addJob(tx, "event__fanout", { eventId: e.id }, { jobKey: `refan:${e.id}` });
    if (stale.length) await tx.execute(sql`select pg_notify(${DELIVERIES_CHANNEL}, '')`);
    return stale.length + unfanned.length;
  });
}

/** The version an app's deliveries are rendered in now (its pin, or past the sunset the oldest supported one). */
async function appVersionOf(db: Db, appId: string, t: Date): Promise<string> {
  const [row] = await db.select({ apiVersion: apps.apiVersion }).from(apps).where(eq(apps.id, appId));
  return renderVersion(row?.apiVersion ?? OLDEST_VERSION, t);
}

/**
 * 48 hours after an uninstall: business.data_erasure to the registration created at install (its
 * id and secret), even though uninstall deactivated it, with the normal retries.
 */
export async function sendErasure(db: Database, installationId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [inst] = await tx.select().from(installations).where(eq(installations.id, installationId)).for("update");
    if (!inst || inst.status !== "UNINSTALLED" || !inst.erasureScheduledAt || inst.erasureDeliveredAt) return false;
    const existing = await tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.installationId, inst.id), eq(webhookDeliveries.event, "business.data_erasure")));
    if (existing.length) return false;
    return (await sendErasureEvent(tx, inst, inst.uninstalledAt!)).length > 0;
  });
}

type Installed = Pick<Installation, "id" | "appId" | "businessId" | "isTestInstall">;

/**
 * business.data_erasure of an installation uninstalled at `uninstalledAt`, recorded and sent to its
 * install registration (none: nothing sent). The erasure job calls it 48 hours after the uninstall;
 * storefront-apps trigger for a test installation that stays installed (decision 035).
 */
export async function sendErasureEvent(tx: Db, inst: Installed, uninstalledAt: Date): Promise<DeliveryRow[]> {
  const target = await installRegistration(tx, inst.id);
  const row = await emitEvent(
    tx,
    event(inst.businessId, "business.data_erasure", {
      appId: inst.appId,
      businessId: inst.businessId,
      uninstalledAt: uninstalledAt.toISOString(),
    }),
  );
  return target ? writeDirectDeliveries(tx, row, [target]) : [];
}

/**
 * app.uninstalled (contract 14): recorded with contract 4's fields, and sent at once to the install
 * registration (even though the uninstall deactivated it, signed with the installation's webhook
 * secret, retried like any delivery) with its declared data `{installationId, businessId,
 * uninstalledAt}`. Called in the uninstall's transaction, and by storefront-apps trigger.
 */
export async function sendAppUninstalled(tx: Db, inst: Installed, uninstalledAt: Date): Promise<DeliveryRow[]> {
  const data = { installationId: inst.id, businessId: inst.businessId, uninstalledAt: uninstalledAt.toISOString() };
  const recorded = { appId: inst.appId, ...data, isTestInstall: inst.isTestInstall };
  const row = await emitEvent(tx, { businessId: inst.businessId, type: "app.uninstalled", data: recorded });
  const target = await installRegistration(tx, inst.id);
  return target ? writeDirectDeliveries(tx, row, [target], () => data) : [];
}

/** webhook.test's data (contract 7), for the test endpoint and storefront-apps trigger alike. */
export const webhookTestData = (webhookId: string): EventData<"webhook.test"> => ({
  message: "This is a test delivery from Storefront Apps.",
  webhookId,
});

/**
 * An event with no scope and no subscription (app_subscription.updated, and the like): the event row
 * and one delivery to the installation's install registration `webhookId` (the app's webhookUrl,
 * signed with the installation's secret, rendered in the app's API version), in the caller's
 * transaction; the dispatchers take it at commit. Returns the delivery's id.
 */
export async function deliverToInstallRegistration(
  tx: Db,
  inst: Installed,
  webhookId: string,
  event: EventInput,
): Promise<string> {
  const row = await emitEvent(tx, event);
  const [app] = await tx.select({ apiVersion: apps.apiVersion }).from(apps).where(eq(apps.id, inst.appId));
  const target = {
    id: webhookId,
    installationId: inst.id,
    appId: inst.appId,
    isTestInstall: inst.isTestInstall,
    apiVersion: app?.apiVersion ?? OLDEST_VERSION,
  };
  const [delivery] = await writeDirectDeliveries(tx, row, [target]);
  return delivery.id;
}

/**
 * POST /webhooks/<id>/test: one attempt now, no retries, even on an inactive registration; not
 * logged as a delivery. On a test installation whose developer runs `storefront-apps listen`, it is
 * relayed to the CLI like any other delivery (decision 027), and the local server's answer is the result.
 */
export async function sendTest(db: Db, env: Env, webhook: Webhook) {
  const id = newId("dlv");
  const apiVersion = await appVersionOf(db, webhook.appId, now());
  const body = envelope({
    id,
    event: "webhook.test",
    timestamp: now(),
    webhookId: webhook.id,
    businessId: webhook.businessId,
    apiVersion,
    data: VERSIONING.event("webhook.test", webhookTestData(webhook.id), apiVersion) as Record<string, unknown>,
  });
  const secret = decrypt(webhook.secretEnc, env.encryptionKey);
  const headers = headersFor({ id, event: "webhook.test", webhookId: webhook.id, apiVersion }, secret, body);
  const [installation] = await db
    .select({ isTestInstall: installations.isTestInstall })
    .from(installations)
    .where(eq(installations.id, webhook.installationId));
  const relayed = await relayIfListening(db, {
    appId: webhook.appId,
    isTestInstall: installation?.isTestInstall ?? false,
    kind: "webhook",
    path: "",
    headers,
    body,
    timeoutMs: DELIVERY_TIMEOUT_MS,
  });
  const result =
    relayed ??
    (await postOutbound(webhook.url, body, headers, {
      timeoutMs: DELIVERY_TIMEOUT_MS,
      allowPrivate: env.outboundAllowPrivate,
    }));
  return {
    success: result.ok,
    statusCode: result.statusCode,
    durationMs: result.durationMs,
    ...(result.ok ? {} : { error: result.error }),
  };
}
