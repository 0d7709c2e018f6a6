/**
 * Deliveries: fan-out of an event to registrations, one attempt per job with an explicit run_at,
 * a log row per attempt, the retry schedule, auto-disable, the sweeper, and the erasure webhook.
 * The deliveries table is the source of truth; jobs only say "try this delivery now".
 */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { textArray } from "../../../db/sql";
import type { Database, Db } from "../../../db/client";
import { installations, platformEvents, webhookAttempts, webhookDeliveries, webhooks, type Webhook, type WebhookDelivery } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { decrypt } from "../core/crypto.server";
import { eventAllowed } from "../apps/catalog";
import { addJob } from "../events/emit.server";
import { signWebhook } from "./verify";
import { postOutbound, type OutboundResult } from "./outbound.server";

/** Delays after each failed attempt: 30 s, 2 min, 8 min, 32 min, 2 h; 6 attempts in all. */
export const RETRY_DELAYS_MS = [30_000, 120_000, 480_000, 1_920_000, 7_200_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const DELIVERY_TIMEOUT_MS = 10_000;
export const AUTO_DISABLE_AFTER = 5;
/** An attempt in flight longer than this was abandoned by a dead worker. */
export const STALE_IN_FLIGHT_MS = 25_000;
export const USER_AGENT = "Service-Webhooks/1.0";

export function envelope(input: { id: string; event: string; timestamp: Date; webhookId: string; businessId: string; data: Record<string, unknown> }) {
  return JSON.stringify({ id: input.id, event: input.event, timestamp: input.timestamp.toISOString(), webhookId: input.webhookId, businessId: input.businessId, data: input.data });
}

/**
 * A fan-out this small would make the first attempts itself instead of queueing a job per
 * delivery. Off (0): with it on, a SIGTERM during a burst left attempts in flight (see
 * docs/performance.md); the mechanism stays for when that is understood.
 */
export const INLINE_FIRST_ATTEMPTS = 0;

/**
 * Writes one delivery per subscribed active registration of an active installation with the
 * scope. Idempotent. Returns the ids of the deliveries whose first attempt the caller must make
 * (small fan-outs); larger ones get one job per delivery. A first attempt lost with a dead worker
 * is re-queued by the sweeper (the delivery is overdue).
 */
export async function fanOut(db: Database, eventId: string): Promise<string[]> {
  return db.transaction(async (tx) => {
    // claims the event: a second fan-out of it (a re-queued stranded job) finds it done, or waits for this one
    const [event] = await tx.update(platformEvents).set({ fannedOutAt: now() }).where(and(eq(platformEvents.id, eventId), isNull(platformEvents.fannedOutAt))).returning();
    if (!event) return [];
    const targets = await tx
      .select({ webhook: webhooks, installation: installations })
      .from(webhooks)
      .innerJoin(installations, eq(installations.id, webhooks.installationId))
      .where(and(eq(webhooks.businessId, event.businessId), eq(webhooks.isActive, true), eq(installations.status, "ACTIVE"), sql`${event.type} = any(${webhooks.events})`));
    const t = now();
    const rows = targets
      .filter(({ installation }) => eventAllowed(event.type, installation.scopes))
      .map(({ webhook, installation }) => {
        const id = newId("dlv");
        return {
          id, eventId: event.id, event: event.type, webhookId: webhook.id, installationId: installation.id, appId: webhook.appId, businessId: event.businessId,
          isTestInstall: installation.isTestInstall,
          body: envelope({ id, event: event.type, timestamp: event.createdAt, webhookId: webhook.id, businessId: event.businessId, data: event.data }),
          status: "PENDING" as const, nextAttemptAt: t, createdAt: t, updatedAt: t,
        };
      });
    if (rows.length === 0) return [];
    const inserted = await tx.insert(webhookDeliveries).values(rows).onConflictDoNothing().returning({ id: webhookDeliveries.id });
    const ids = inserted.map((d) => d.id);
    if (ids.length <= INLINE_FIRST_ATTEMPTS) return ids;
    await tx.execute(sql`select graphile_worker.add_jobs((
      select array_agg(row('webhook__deliver', json_build_object('deliveryId', id, 'after', 0), null, null, null, null, null, null)::graphile_worker.job_spec)
      from unnest(${textArray(ids)}) as id))`);
    return [];
  });
}

function headersFor(delivery: Pick<WebhookDelivery, "id" | "event" | "webhookId">, secret: string, body: string) {
  const timestamp = Math.floor(now().getTime() / 1000).toString();
  return {
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

/**
 * One attempt of a delivery. Claimed atomically (no two workers send the same attempt), signed
 * with the registration's secret, logged, then SUCCEEDED, scheduled again, or FAILED.
 * A manual attempt (redeliver) schedules no retries of its own.
 */
export async function attemptDelivery(db: Database, env: Env, deliveryId: string, options: { manual?: boolean; after?: number } = {}): Promise<"sent" | "skipped"> {
  const t = now();
  const staleBefore = new Date(t.getTime() - STALE_IN_FLIGHT_MS);
  const statuses = options.manual ? ["PENDING", "RETRYING", "FAILED", "SUCCEEDED"] : ["PENDING", "RETRYING"];
  const [delivery] = await db
    .update(webhookDeliveries)
    .set({ inFlightSince: t })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        inArray(webhookDeliveries.status, statuses as WebhookDelivery["status"][]),
        sql`(${webhookDeliveries.inFlightSince} is null or ${webhookDeliveries.inFlightSince} < ${staleBefore.toISOString()}::timestamptz)`,
        // a job made for attempt n+1 does nothing once that attempt happened (a duplicate job never sends early)
        options.after === undefined ? undefined : eq(webhookDeliveries.attempts, options.after),
      ),
    )
    .returning();
  if (!delivery) return "skipped";
  const [webhook] = await db.select().from(webhooks).where(eq(webhooks.id, delivery.webhookId));
  if (!webhook || (!webhook.isActive && delivery.event !== "business.data_erasure" && !options.manual)) {
    await db.update(webhookDeliveries).set({ status: "FAILED", inFlightSince: null, nextAttemptAt: null, updatedAt: now() }).where(eq(webhookDeliveries.id, delivery.id));
    return "skipped";
  }
  const secret = decrypt(webhook.secretEnc, env.encryptionKey);
  const result = await postOutbound(webhook.url, delivery.body, headersFor(delivery, secret, delivery.body), { timeoutMs: DELIVERY_TIMEOUT_MS, allowPrivate: env.outboundAllowPrivate });
  await recordAttempt(db, delivery, webhook, result, options.manual ?? false);
  return "sent";
}

async function recordAttempt(db: Database, delivery: WebhookDelivery, webhook: Webhook, result: OutboundResult, manual: boolean) {
  // the common case, a success with no failure streak to reset: one statement (atomic) instead of a transaction
  if (result.ok && webhook.consecutiveFailures === 0 && delivery.event !== "business.data_erasure") {
    const t = now();
    const answered = result.statusCode !== null;
    const rollupCte = delivery.isTestInstall
      ? sql``
      : sql`, stats as (
          insert into webhook_daily_stats (app_id, day, shard, succeeded, failed, answered, latency_total_ms)
          values (${delivery.appId}, ${t.toISOString().slice(0, 10)}, ${Math.floor(Math.random() * ROLLUP_SHARDS)}, 1, 0, ${answered ? 1 : 0}, ${answered ? result.durationMs : 0})
          on conflict (app_id, day, shard) do update set succeeded = webhook_daily_stats.succeeded + 1,
            answered = webhook_daily_stats.answered + excluded.answered, latency_total_ms = webhook_daily_stats.latency_total_ms + excluded.latency_total_ms)`;
    await db.execute(sql`
      with attempt as (
        insert into webhook_attempts (id, delivery_id, app_id, is_test_install, attempt_no, success, status_code, duration_ms, error, response_excerpt, created_at)
        values (${newId("att")}, ${delivery.id}, ${delivery.appId}, ${delivery.isTestInstall}, ${delivery.attempts + 1}, true, ${result.statusCode}, ${result.durationMs}, null, ${result.bodyExcerpt ?? null}, ${t.toISOString()}::timestamptz))
      ${rollupCte}
      update webhook_deliveries set status = 'SUCCEEDED', attempts = ${delivery.attempts + 1}, last_status_code = ${result.statusCode}, last_duration_ms = ${result.durationMs},
        next_attempt_at = null, in_flight_since = null, updated_at = ${t.toISOString()}::timestamptz
      where id = ${delivery.id}`);
    return;
  }
  await db.transaction(async (tx) => {
    const t = now();
    const attemptNo = delivery.attempts + 1;
    await tx.insert(webhookAttempts).values({
      id: newId("att"), deliveryId: delivery.id, appId: delivery.appId, isTestInstall: delivery.isTestInstall, attemptNo, success: result.ok,
      statusCode: result.statusCode, durationMs: result.durationMs, error: result.error ?? null, responseExcerpt: result.bodyExcerpt ?? null, createdAt: t,
    });
    if (!delivery.isTestInstall) await rollup(tx, delivery.appId, t, result);
    const base = { attempts: attemptNo, lastStatusCode: result.statusCode, lastDurationMs: result.durationMs, inFlightSince: null, updatedAt: t };
    if (result.ok) {
      await tx.update(webhookDeliveries).set({ ...base, status: "SUCCEEDED", nextAttemptAt: null }).where(eq(webhookDeliveries.id, delivery.id));
      // touch the registration row only when there is a failure streak to reset (no hot row on success)
      if (webhook.consecutiveFailures !== 0) await tx.update(webhooks).set({ consecutiveFailures: 0 }).where(and(eq(webhooks.id, webhook.id), sql`${webhooks.consecutiveFailures} <> 0`));
      if (delivery.event === "business.data_erasure")
        await tx.update(installations).set({ erasureDeliveredAt: t }).where(and(eq(installations.id, delivery.installationId), sql`${installations.erasureDeliveredAt} is null`));
      return;
    }
    if (manual) {
      await tx.update(webhookDeliveries).set(base).where(eq(webhookDeliveries.id, delivery.id));
      return;
    }
    if (attemptNo < MAX_ATTEMPTS) {
      const runAt = new Date(t.getTime() + RETRY_DELAYS_MS[attemptNo - 1]);
      await tx.update(webhookDeliveries).set({ ...base, status: "RETRYING", nextAttemptAt: runAt }).where(eq(webhookDeliveries.id, delivery.id));
      await addJob(tx, "webhook__deliver", { deliveryId: delivery.id, after: attemptNo }, { runAt });
      return;
    }
    await tx.update(webhookDeliveries).set({ ...base, status: "FAILED", nextAttemptAt: null }).where(eq(webhookDeliveries.id, delivery.id));
    const [counted] = await tx
      .update(webhooks)
      .set({ consecutiveFailures: sql`${webhooks.consecutiveFailures} + 1` })
      .where(eq(webhooks.id, webhook.id))
      .returning({ failures: webhooks.consecutiveFailures });
    if (counted && counted.failures >= AUTO_DISABLE_AFTER)
      await tx.update(webhooks).set({ isActive: false, disabledReason: "consecutive_failures", updatedAt: t }).where(and(eq(webhooks.id, webhook.id), eq(webhooks.isActive, true)));
  });
}

/** A job whose work has not happened this long after it was due was lost (its worker died holding it). */
export const STRANDED_AFTER_MS = 60_000;

/**
 * Run every few seconds by every worker: re-queues (1) attempts left in flight by a worker that
 * died, (2) deliveries due long ago whose job was lost, (3) events whose fan-out job was lost. The
 * work is idempotent (atomic claims, unique deliveries), so a job that was only slow, not lost,
 * costs nothing but a skipped run. Job keys keep the sweeper from piling up copies.
 */
export async function sweepAbandoned(db: Database, strandedAfterMs = STRANDED_AFTER_MS): Promise<number> {
  const t = now().getTime();
  const staleBefore = new Date(t - STALE_IN_FLIGHT_MS).toISOString();
  const strandedBefore = new Date(t - strandedAfterMs).toISOString();
  return db.transaction(async (tx) => {
    const stale = await tx
      .update(webhookDeliveries)
      .set({ inFlightSince: null })
      .where(and(inArray(webhookDeliveries.status, ["PENDING", "RETRYING"]), sql`${webhookDeliveries.inFlightSince} < ${staleBefore}::timestamptz`))
      .returning({ id: webhookDeliveries.id, attempts: webhookDeliveries.attempts });
    const overdue = await tx.execute<{ id: string; attempts: number }>(sql`
      select id, attempts from webhook_deliveries
      where status in ('PENDING', 'RETRYING') and in_flight_since is null and next_attempt_at < ${strandedBefore}::timestamptz
      order by next_attempt_at limit 500`);
    const due = new Map<string, number>([...stale, ...overdue].map((d) => [d.id, d.attempts]));
    for (const [id, attempts] of due) await addJob(tx, "webhook__deliver", { deliveryId: id, after: attempts }, { jobKey: `redo:${id}` });
    const unfanned = await tx.execute<{ id: string }>(sql`
      select id from platform_events where fanned_out_at is null and created_at < ${strandedBefore}::timestamptz order by created_at limit 500`);
    for (const e of unfanned) await addJob(tx, "event__fanout", { eventId: e.id }, { jobKey: `refan:${e.id}` });
    return due.size + unfanned.length;
  });
}

/**
 * 48 hours after an uninstall: business.data_erasure to the registration created at install (its
 * id and secret), even though uninstall deactivated it, with the normal retries.
 */
export async function sendErasure(db: Database, installationId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [inst] = await tx.select().from(installations).where(eq(installations.id, installationId)).for("update");
    if (!inst || inst.status !== "UNINSTALLED" || !inst.erasureScheduledAt || inst.erasureDeliveredAt) return false;
    const [webhook] = await tx.select().from(webhooks).where(and(eq(webhooks.installationId, inst.id), eq(webhooks.isInstallDefault, true)));
    if (!webhook) return false;
    const existing = await tx.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(and(eq(webhookDeliveries.installationId, inst.id), eq(webhookDeliveries.event, "business.data_erasure")));
    if (existing.length) return false;
    const t = now();
    const eventId = newId("evt");
    const data = { appId: inst.appId, businessId: inst.businessId, uninstalledAt: inst.uninstalledAt!.toISOString() };
    await tx.insert(platformEvents).values({ id: eventId, businessId: inst.businessId, type: "business.data_erasure", data, createdAt: t, fannedOutAt: t });
    const id = newId("dlv");
    await tx.insert(webhookDeliveries).values({
      id, eventId, event: "business.data_erasure", webhookId: webhook.id, installationId: inst.id, appId: inst.appId, businessId: inst.businessId,
      isTestInstall: inst.isTestInstall, body: envelope({ id, event: "business.data_erasure", timestamp: t, webhookId: webhook.id, businessId: inst.businessId, data }),
      status: "PENDING", nextAttemptAt: t, createdAt: t, updatedAt: t,
    });
    await addJob(tx, "webhook__deliver", { deliveryId: id, after: 0 });
    return true;
  });
}

/** POST /webhooks/<id>/test: one attempt now, no retries, even on an inactive registration; not logged as a delivery. */
export async function sendTest(env: Env, webhook: Webhook) {
  const id = newId("dlv");
  const body = envelope({ id, event: "webhook.test", timestamp: now(), webhookId: webhook.id, businessId: webhook.businessId, data: { message: "This is a test delivery from Storefront Apps.", webhookId: webhook.id } });
  const secret = decrypt(webhook.secretEnc, env.encryptionKey);
  const result = await postOutbound(webhook.url, body, headersFor({ id, event: "webhook.test", webhookId: webhook.id }, secret, body), { timeoutMs: DELIVERY_TIMEOUT_MS, allowPrivate: env.outboundAllowPrivate });
  return { success: result.ok, statusCode: result.statusCode, durationMs: result.durationMs, ...(result.ok ? {} : { error: result.error }) };
}
