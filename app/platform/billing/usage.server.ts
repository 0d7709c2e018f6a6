/** Usage records under the cap (contract 13, decisions 050 and 051) and the merchant's raise of the cap. */
import { and, desc, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database, Tx } from "../../../db/client";
import { appSubscriptions, usageRecords, type AppSubscription, type UsageRecord } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { uniqueViolation } from "../../../db/sql";
import { formatMoney } from "../core/money";
import { closeEndedPeriods } from "./closing.server";
import { notifySubscription } from "./notify.server";
import { lockSubscription, type BillingCaller } from "./lifecycle.server";
import { UsageCreate } from "./subscription-shapes";

/**
 * Without an Idempotency-Key, the same record (description, amount and currency) on the same
 * subscription within this window is taken for a retry and answered with the first record
 * (decision 051): a request whose commit landed while its connection closed is not charged twice.
 */
export const USAGE_RETRY_WINDOW_MS = 10 * 60_000;

/**
 * POST /app-api/billing/subscriptions/<id>/usage: locks the subscription's row (which orders
 * concurrent records and keeps the closing job away), closes the periods that ended before the job
 * came round (the record belongs to the period running now, under its cap: decision 050), then
 * claims room under the cap in ONE conditional update and records the usage, all in one
 * transaction. With an Idempotency-Key, a retry answers the first record and claims nothing;
 * without one, so does the same record again within USAGE_RETRY_WINDOW_MS (decision 051).
 */
export async function recordUsage(
  db: Database,
  caller: BillingCaller,
  id: string,
  input: z.output<typeof UsageCreate>,
  idempotencyKey: string | null,
): Promise<{ record: UsageRecord; sub: AppSubscription; replayed: boolean }> {
  const existing = async () => {
    if (!idempotencyKey) return null;
    const [r] = await db
      .select({ record: usageRecords, sub: appSubscriptions })
      .from(usageRecords)
      .innerJoin(appSubscriptions, eq(appSubscriptions.id, usageRecords.subscriptionId))
      .where(
        and(
          eq(usageRecords.subscriptionId, id),
          eq(usageRecords.idempotencyKey, idempotencyKey),
          eq(appSubscriptions.installationId, caller.installation.id),
        ),
      );
    if (!r) return null;
    if (r.record.amount !== input.amount.amount || r.record.description !== input.description)
      throw new ApiError(422, "Idempotency-Key was used with a different body");
    return { record: r.record, sub: r.sub, replayed: true };
  };
  const first = await existing();
  if (first) return first;
  try {
    return await db.transaction(async (tx) => {
      const t = now();
      const [locked] = await tx
        .select()
        .from(appSubscriptions)
        .where(and(eq(appSubscriptions.id, id), eq(appSubscriptions.installationId, caller.installation.id)))
        .for("update");
      if (!locked) throw new ApiError(404, "Subscription not found");
      const current = await closeEndedPeriods(tx, locked, t);
      if (!idempotencyKey && current.plan.currency === input.amount.currency) {
        const [same] = await tx
          .select()
          .from(usageRecords)
          .where(
            and(
              eq(usageRecords.subscriptionId, id),
              isNull(usageRecords.idempotencyKey),
              eq(usageRecords.description, input.description),
              eq(usageRecords.amount, input.amount.amount),
              gt(usageRecords.createdAt, new Date(t.getTime() - USAGE_RETRY_WINDOW_MS)),
            ),
          )
          .orderBy(desc(usageRecords.createdAt), desc(usageRecords.id))
          .limit(1);
        if (same) return { record: same, sub: current, replayed: true };
      }
      const [claimed] = await tx
        .update(appSubscriptions)
        .set({ usageBalance: sql`${appSubscriptions.usageBalance} + ${input.amount.amount}`, updatedAt: t })
        .where(
          and(
            eq(appSubscriptions.id, id),
            eq(appSubscriptions.installationId, caller.installation.id),
            eq(appSubscriptions.status, "ACTIVE"),
            isNotNull(appSubscriptions.usageCap),
            sql`${appSubscriptions.plan}->>'currency' = ${input.amount.currency}`,
            sql`${appSubscriptions.usageBalance} + ${input.amount.amount} <= ${appSubscriptions.usageCap}`,
          ),
        )
        .returning();
      if (!claimed) throw await usageRefusal(tx, caller, id, input.amount);
      const [record] = await tx
        .insert(usageRecords)
        .values({
          id: newId("use"),
          subscriptionId: id,
          businessId: caller.business.id,
          description: input.description,
          amount: input.amount.amount,
          periodStart: claimed.currentPeriodStart!,
          idempotencyKey,
          createdAt: t,
        })
        .returning();
      // 90% of the cap: app_subscription.updated once per period (a conditional update elects one request)
      if (claimed.usageBalance * 10 >= claimed.usageCap! * 9) {
        const [warned] = await tx
          .update(appSubscriptions)
          .set({ capWarnedFor: claimed.currentPeriodStart })
          .where(
            and(
              eq(appSubscriptions.id, id),
              sql`${appSubscriptions.capWarnedFor} is distinct from ${appSubscriptions.currentPeriodStart}`,
            ),
          )
          .returning();
        if (warned) await notifySubscription(tx, warned, "CAP_NEARLY_REACHED");
      }
      return { record, sub: claimed, replayed: false };
    });
  } catch (e) {
    // the same key at the same moment: the other request's record is the answer
    if (uniqueViolation(e) === "usage_records_idempotency_key") {
      const again = await existing();
      if (again) return again;
    }
    throw e;
  }
}

/** Why no room was claimed: 404, 409 (not active, no usage, over the cap naming cap and balance) or 400 (currency). */
async function usageRefusal(tx: Tx, caller: BillingCaller, id: string, amount: { amount: number; currency: string }) {
  const [sub] = await tx
    .select()
    .from(appSubscriptions)
    .where(and(eq(appSubscriptions.id, id), eq(appSubscriptions.installationId, caller.installation.id)));
  if (!sub) return new ApiError(404, "Subscription not found");
  if (sub.status !== "ACTIVE") return new ApiError(409, `The subscription is ${sub.status}, not ACTIVE`);
  if (sub.usageCap === null) return new ApiError(409, "The subscription's plan has no usage charges (no usageCap)");
  const c = sub.plan.currency;
  if (amount.currency !== c) return new ApiError(400, `amount.currency: must be ${c}, the subscription's currency`);
  return new ApiError(
    409,
    `Usage cap reached: a record of ${amount.amount} would pass the usage cap of ${sub.usageCap} with a balance of ${sub.usageBalance} (minor units of ${c}: cap ${formatMoney(sub.usageCap, c)}, balance ${formatMoney(sub.usageBalance, c)})`,
  );
}

/** The merchant raises an ACTIVE subscription's usage cap (their own approval); never lowers it. */
export async function raiseUsageCap(
  db: Database,
  businessId: string,
  id: string,
  cap: { amount: number; currency: string },
) {
  return db.transaction(async (tx) => {
    const sub = await lockSubscription(
      tx,
      and(eq(appSubscriptions.id, id), eq(appSubscriptions.businessId, businessId)),
    );
    if (sub.status !== "ACTIVE") throw new ApiError(409, `The subscription is ${sub.status}, not ACTIVE`);
    if (sub.usageCap === null) throw new ApiError(409, "The subscription's plan has no usage charges");
    if (cap.currency !== sub.plan.currency)
      throw new ApiError(400, `usageCap.currency: must be ${sub.plan.currency}, the subscription's currency`);
    if (cap.amount <= sub.usageCap)
      throw new ApiError(400, `usageCap.amount: must be more than the current cap (${sub.usageCap})`);
    const [raised] = await tx
      .update(appSubscriptions)
      .set({ usageCap: cap.amount, updatedAt: now() })
      .where(eq(appSubscriptions.id, id))
      .returning();
    await notifySubscription(tx, raised, "CAP_CHANGED");
    return raised;
  });
}
