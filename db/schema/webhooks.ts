import { pgTable, text, boolean, integer, jsonb, index, uniqueIndex, bigint } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { counter, createdAt, id, installationOwner, timestamps, ts } from "./columns";

/** Every platform event, written in the transaction of the change that causes it. */
export const platformEvents = pgTable(
  "platform_events",
  {
    id: id(),
    businessId: text("business_id").notNull(),
    type: text("type").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    /** set when the fan-out wrote this event's deliveries; a sweeper re-queues stranded fan-outs */
    fannedOutAt: ts("fanned_out_at"),
    /**
     * null: every subscribed registration may receive it; an installation id: only that
     * installation's (storefront-apps trigger, decision 035); "none": recorded, sent to nobody
     */
    audience: text("audience"),
    createdAt: createdAt(),
  },
  (t) => [
    index("platform_events_business_idx").on(t.businessId, t.createdAt.desc().nullsFirst()),
    index("platform_events_unfanned_idx")
      .on(t.createdAt)
      .where(sql`fanned_out_at is null`),
  ],
);

export const webhooks = pgTable(
  "webhooks",
  {
    id: id(),
    ...installationOwner(),
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    secretEnc: text("secret_enc").notNull(),
    description: text("description").notNull().default(""),
    isActive: boolean("is_active").notNull().default(true),
    /** created at install from the app's webhookUrl; receives business.data_erasure */
    isInstallDefault: boolean("is_install_default").notNull().default(false),
    consecutiveFailures: counter("consecutive_failures"),
    disabledReason: text("disabled_reason"),
    ...timestamps(),
  },
  (t) => [
    index("webhooks_installation_idx").on(t.installationId, t.createdAt.desc().nullsFirst()),
    index("webhooks_business_active_idx").on(t.businessId, t.isActive),
  ],
);

export const DELIVERY_STATUSES = ["PENDING", "RETRYING", "SUCCEEDED", "FAILED"] as const;

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: id(),
    eventId: text("event_id").notNull(),
    event: text("event").notNull(),
    webhookId: text("webhook_id").notNull(),
    ...installationOwner(),
    isTestInstall: boolean("is_test_install").notNull().default(false),
    /** the body exactly as sent, so that retries send identical bytes */
    body: text("body").notNull(),
    /** the API version the body was rendered in (the app's pin when the row was written; decision 041) */
    apiVersion: text("api_version").notNull().default("2026-11-21"),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull().default("PENDING"),
    attempts: counter("attempts"),
    lastStatusCode: integer("last_status_code"),
    lastDurationMs: integer("last_duration_ms"),
    nextAttemptAt: ts("next_attempt_at"),
    /** set while a worker sends an attempt; a sweeper re-queues stale ones */
    inFlightSince: ts("in_flight_since"),
    ...timestamps(),
  },
  (t) => [
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    uniqueIndex("webhook_deliveries_event_webhook_key").on(t.eventId, t.webhookId),
    index("webhook_deliveries_inflight_idx").on(t.inFlightSince),
    // first attempts waiting for the dispatcher (webhooks/dispatcher.server.ts): rows leave it once claimed
    // by registration, so that the dispatcher takes the oldest few of each (endpoint isolation, issue 25)
    index("webhook_deliveries_first_attempt_idx")
      .on(t.webhookId, t.createdAt)
      .where(sql`status = 'PENDING' and attempts = 0 and in_flight_since is null`),
    // retries waiting for the dispatcher, by registration and due time: a failing endpoint's retries
    // take at most its cap of the dispatcher's slots (decision 024)
    index("webhook_deliveries_retry_idx")
      .on(t.webhookId, t.nextAttemptAt)
      .where(sql`status in ('PENDING', 'RETRYING') and attempts > 0 and in_flight_since is null`),
  ],
);

export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: id(),
    deliveryId: text("delivery_id").notNull(),
    appId: text("app_id").notNull(),
    isTestInstall: boolean("is_test_install").notNull().default(false),
    attemptNo: integer("attempt_no").notNull(),
    success: boolean("success").notNull(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms"),
    error: text("error"),
    responseExcerpt: text("response_excerpt"),
    createdAt: createdAt(),
  },
  (t) => [
    index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attemptNo),
    index("webhook_attempts_app_created_idx").on(t.appId, t.createdAt),
  ],
);

/** Daily rollup of attempts per app, kept by the attempt writer, so analytics never scans attempts. */
export const webhookDailyStats = pgTable(
  "webhook_daily_stats",
  {
    appId: text("app_id").notNull(),
    day: text("day").notNull(),
    /** rows are spread over a few shards so that concurrent attempts do not queue on one row */
    shard: integer("shard").notNull().default(0),
    succeeded: counter("succeeded"),
    failed: counter("failed"),
    answered: counter("answered"),
    latencyTotalMs: bigint("latency_total_ms", { mode: "number" }).notNull().default(0),
  },
  (t) => [uniqueIndex("webhook_daily_stats_key").on(t.appId, t.day, t.shard)],
);

export type Webhook = typeof webhooks.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
