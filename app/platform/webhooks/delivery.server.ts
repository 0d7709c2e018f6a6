/**
 * Deliveries: fan-out of an event to registrations, one attempt per job with an explicit run_at,
 * a log row per attempt, the retry schedule, auto-disable, (the rules: delivery-rules; the records: attempt-record; the sweeper; the test send; the erasure and other direct sends: events/special-sends).
 * The deliveries table is the source of truth; jobs only say "try this delivery now".
 */
import { and, inArray, or, sql } from "drizzle-orm";
import { intArray, readColumns, selectColumns, textArray } from "../../../db/sql";
import type { Database, Db } from "../../../db/client";
import { platformEvents, webhookDeliveries, webhooks, type WebhookDelivery } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { now } from "../core/clock.server";
import { decrypt } from "../core/crypto.server";

import { writeDeliveries } from "./fanout.server";
import { postOutbound, type OutboundResult } from "../outbound/outbound.server";
import { relayIfListening } from "../outbound/relay-send.server";
import { MANDATORY_EVENTS } from "../shapes/app-catalog";
import {
  DELIVERY_TIMEOUT_MS,
  staleInFlightMs,
  headersFor,
  type DeliveryTarget,
  type ClaimedDelivery,
  type AttemptResult,
} from "./delivery-rules.server";
import { recordResults } from "./attempt-record.server";

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
    businessId: delivery.businessId,
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
