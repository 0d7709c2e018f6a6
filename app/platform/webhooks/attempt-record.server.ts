/** What an attempt leaves: its attempt row, the delivery's new state, the rollup, and the registration's failure streak. */
import { notifyWebhookDisabled } from "../mail/notices.server";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../../db/client";
import { installations, webhookAttempts, webhookDeliveries, webhooks, type WebhookDelivery } from "../../../db/schema";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";

import { type OutboundResult } from "../outbound/outbound.server";
import { answerWithoutErased } from "../core/erased";
import { createHash } from "node:crypto";
import {
  RETRY_DELAYS_MS,
  MAX_ATTEMPTS,
  AUTO_DISABLE_AFTER,
  ROLLUP_SHARDS,
  rollup,
  type DeliveryTarget,
  type AttemptResult,
} from "./delivery-rules.server";

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
  // customer.redact goes alone: the trigger that takes the e-mail out of its body when it is over also
  // takes it out of its attempts' answers, which it sees only once the attempt row is written (decision 048)
  const plain = (r: (typeof sent)[number]) =>
    r.result.ok &&
    r.webhook.consecutiveFailures === 0 &&
    r.delivery.event !== "business.data_erasure" &&
    r.delivery.event !== "customer.redact";
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
  // the delivery row is updated (locked) before the attempt is written: when an erasure rewrote the body
  // while it was out, the answer (an echo of the old body) is not kept as it came (decision 048)
  const rows = await db.execute<{ id: string }>(sql`
    with v (att_id, id, app_id, is_test, attempt_no, code, ms, excerpt, sent) as (values ${sql.join(
      done.map(
        ({ delivery: d, result: r }) =>
          sql`(${newId("att")}, ${d.id}, ${d.appId}, ${d.isTestInstall}::boolean, ${d.attempts + 1}::int, ${r.statusCode}::int, ${r.durationMs}::int, ${r.bodyExcerpt ?? null}::text, ${md5(d.body)})`,
      ),
      sql`, `,
    )}),
    u as (
      update webhook_deliveries d set status = 'SUCCEEDED', attempts = v.attempt_no, last_status_code = v.code, last_duration_ms = v.ms,
        next_attempt_at = null, in_flight_since = null, updated_at = ${at}::timestamptz
      from v where d.id = v.id
      returning d.id, md5(d.body) = v.sent as same
    ),
    attempt as (
      insert into webhook_attempts (id, delivery_id, app_id, is_test_install, attempt_no, success, status_code, duration_ms, error, response_excerpt, created_at)
      select v.att_id, v.id, v.app_id, v.is_test, v.attempt_no, true, v.code, v.ms, null,
        case when u.same then v.excerpt end, ${at}::timestamptz
      from v join u on u.id = v.id
    )
    ${rollup}
    select u.id from u where not u.same`);
  // rare: the answers to rewritten bodies, kept without what the erasure took out
  for (const { id } of rows) {
    const { delivery, result } = done.find((x) => x.delivery.id === id)!;
    await db.transaction(async (tx) => {
      const [stored] = await tx
        .select({ body: webhookDeliveries.body })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.id, id))
        .for("update");
      await tx
        .update(webhookAttempts)
        .set({ responseExcerpt: answerWithoutErased(delivery.body, stored.body, result.bodyExcerpt ?? null) })
        .where(and(eq(webhookAttempts.deliveryId, id), eq(webhookAttempts.attemptNo, delivery.attempts + 1)));
    });
  }
}

const md5 = (text: string) => createHash("md5").update(text, "utf8").digest("hex");

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
    // the delivery row first: an erasure that rewrote the body while it was out has the answer kept without what it took out (decision 048)
    const [stored] = await tx
      .select({ body: webhookDeliveries.body })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, delivery.id))
      .for("update");
    const storedBody = stored?.body ?? delivery.body;
    await tx.insert(webhookAttempts).values({
      id: newId("att"),
      deliveryId: delivery.id,
      appId: delivery.appId,
      isTestInstall: delivery.isTestInstall,
      attemptNo,
      success: result.ok,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: answerWithoutErased(delivery.body, storedBody, result.error ?? null),
      responseExcerpt: answerWithoutErased(delivery.body, storedBody, result.bodyExcerpt ?? null),
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
