/** The merchant's side of a request: approve (with the trial left and the first period), decline, the confirmation page's view. */
import { and, eq, sql } from "drizzle-orm";
import type { Database, Tx } from "../../../db/client";
import { appSubscriptions, apps, installations, type AppSubscription } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { now } from "../core/clock.server";
import { DAY_MS, periodDays, writeLine } from "./closing.server";
import { notifySubscription } from "./notify.server";
import { endActive, expireIfStale, lockSubscription } from "./lifecycle.server";
import { byOf, recordActivity, type ActivityBy } from "../activity/activity.server";

/** The log's entry of the merchant's answer to a request (contract 18), in the answer's transaction. */
function recordAnswer(tx: Tx, sub: AppSubscription, action: "charge.approved" | "charge.declined", by?: ActivityBy) {
  return recordActivity(tx, {
    businessId: sub.businessId,
    appId: sub.appId,
    ...byOf(by),
    action,
    target: { type: "subscription", id: sub.id },
    details: {
      plan: sub.plan.name,
      kind: sub.kind,
      price: sub.plan.price ?? null,
      currency: sub.plan.currency,
      test: sub.test,
    },
  });
}

/**
 * Trial days this business has already had of this app (any earlier subscription, whatever
 * happened to it or its installation): a reinstall does not restart a used trial.
 */
async function trialDaysUsed(tx: Tx, businessId: string, appId: string, exceptId: string): Promise<number> {
  const [row] = await tx.execute<{ days: string | null }>(sql`
    select coalesce(sum(ceil(extract(epoch from (least(trial_ends_at, coalesce(ended_at, ${now().toISOString()}::timestamptz)) - activated_at)) / 86400)), 0) as days
    from app_subscriptions
    where business_id = ${businessId} and app_id = ${appId} and id <> ${exceptId}
      and activated_at is not null and trial_ends_at is not null and trial_ends_at > activated_at`);
  return Math.max(0, Number(row?.days ?? 0));
}

/** The merchant's PENDING subscription, locked; 404 for another business's; a stale one is expired (409). */
async function lockPending(tx: Tx, businessId: string, id: string) {
  const sub = await lockSubscription(tx, and(eq(appSubscriptions.id, id), eq(appSubscriptions.businessId, businessId)));
  if (sub.status === "PENDING" && sub.expiresAt <= now()) {
    const [expired] = await tx
      .update(appSubscriptions)
      .set({ status: "EXPIRED", endedAt: sub.expiresAt, updatedAt: now() })
      .where(eq(appSubscriptions.id, id))
      .returning();
    await notifySubscription(tx, expired, "STATUS_CHANGED");
    return {
      sub: expired,
      refusal: new ApiError(409, "The request expired (48 hours); ask the app to request it again"),
    };
  }
  if (sub.status !== "PENDING")
    return { sub, refusal: new ApiError(409, `The subscription is ${sub.status}, not PENDING`) };
  return { sub, refusal: null };
}

/**
 * The merchant approves: PENDING -> ACTIVE, with its trial (less what this business already used of
 * this app's trials) and first period; a recurring subscription replaces the installation's
 * current one (closed prorated); a one-time charge is billed at once. Exactly one of many
 * simultaneous approvals activates (the row lock; the others see ACTIVE: 409).
 */
export async function approveSubscription(
  db: Database,
  businessId: string,
  id: string,
  by?: ActivityBy,
): Promise<AppSubscription> {
  const result = await db.transaction(async (tx) => {
    const { sub, refusal } = await lockPending(tx, businessId, id);
    if (refusal) return { refusal };
    // the installation's row orders two approvals of different subscriptions of one installation
    const [inst] = await tx.select().from(installations).where(eq(installations.id, sub.installationId)).for("update");
    if (!inst || inst.status !== "ACTIVE") return { refusal: new ApiError(409, "The app is no longer installed") };
    const t = now();
    if (sub.kind === "ONE_TIME") {
      const [active] = await tx
        .update(appSubscriptions)
        .set({ status: "ACTIVE", activatedAt: t, closedAt: t, updatedAt: t })
        .where(eq(appSubscriptions.id, id))
        .returning();
      await writeLine(tx, active, {
        key: `${id}:one-time`,
        kind: "ONE_TIME",
        description: sub.plan.name,
        amount: sub.plan.price ?? 0,
        at: t,
      });
      await notifySubscription(tx, active, "STATUS_CHANGED");
      await recordAnswer(tx, active, "charge.approved", by);
      return { sub: active };
    }
    const [current] = await tx
      .select()
      .from(appSubscriptions)
      .where(
        and(
          eq(appSubscriptions.installationId, sub.installationId),
          eq(appSubscriptions.status, "ACTIVE"),
          eq(appSubscriptions.kind, "RECURRING"),
        ),
      )
      .for("update");
    if (current) await endActive(tx, current, "REPLACED");
    const trialLeft = Math.max(0, sub.plan.trialDays - (await trialDaysUsed(tx, sub.businessId, sub.appId, sub.id)));
    const [active] = await tx
      .update(appSubscriptions)
      .set({
        status: "ACTIVE",
        activatedAt: t,
        trialEndsAt: trialLeft > 0 ? new Date(t.getTime() + trialLeft * DAY_MS) : null,
        currentPeriodStart: t,
        currentPeriodEnd: new Date(t.getTime() + periodDays(sub) * DAY_MS),
        usageBalance: 0,
        updatedAt: t,
      })
      .where(eq(appSubscriptions.id, id))
      .returning();
    await notifySubscription(tx, active, "STATUS_CHANGED");
    await recordAnswer(tx, active, "charge.approved", by);
    return { sub: active };
  });
  if (result.refusal) throw result.refusal;
  return result.sub!;
}

/** The merchant declines: PENDING -> DECLINED. */
export async function declineSubscription(
  db: Database,
  businessId: string,
  id: string,
  by?: ActivityBy,
): Promise<AppSubscription> {
  const result = await db.transaction(async (tx) => {
    const { refusal } = await lockPending(tx, businessId, id);
    if (refusal) return { refusal };
    const t = now();
    const [declined] = await tx
      .update(appSubscriptions)
      .set({ status: "DECLINED", endedAt: t, endedBy: "MERCHANT", updatedAt: t })
      .where(eq(appSubscriptions.id, id))
      .returning();
    await notifySubscription(tx, declined, "STATUS_CHANGED");
    await recordAnswer(tx, declined, "charge.declined", by);
    return { sub: declined };
  });
  if (result.refusal) throw result.refusal;
  return result.sub!;
}

/** The confirmation page's view: the merchant's subscription with its app's name and icon. */
export async function getForConfirmation(db: Database, businessId: string, id: string) {
  const [row] = await db
    .select({ sub: appSubscriptions, appName: apps.name, iconUrl: apps.iconUrl })
    .from(appSubscriptions)
    .innerJoin(apps, eq(apps.id, appSubscriptions.appId))
    .where(and(eq(appSubscriptions.id, id), eq(appSubscriptions.businessId, businessId)));
  if (!row) throw new ApiError(404, "Subscription not found");
  return { ...row, sub: await expireIfStale(db, row.sub) };
}
