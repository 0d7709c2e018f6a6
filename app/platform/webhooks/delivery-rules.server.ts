/**
 * What a webhook delivery is: its retry schedule and limits, its types, its signed headers, and the
 * daily rollup an attempt adds to (contract 7; decision 024 for the caps).
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { type Webhook, type WebhookDelivery } from "../../../db/schema";
import { now } from "../core/clock.server";

import { signWebhook } from "../outbound/verify";
import { type OutboundResult } from "../outbound/outbound.server";
import { USER_AGENT } from "../outbound/outbound.server";

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

/** What sending a delivery needs of its registration. */
export type DeliveryTarget = Pick<Webhook, "id" | "url" | "secretEnc" | "isActive" | "consecutiveFailures">;
export type ClaimedDelivery = { delivery: WebhookDelivery; webhook: DeliveryTarget | null };
/** A claimed delivery after its attempt; `result` null: dropped (its registration is gone or inactive). */
export type AttemptResult = {
  delivery: WebhookDelivery;
  webhook: DeliveryTarget | null;
  result: OutboundResult | null;
};

export function headersFor(
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

export async function rollup(db: Db, appId: string, at: Date, result: OutboundResult) {
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
