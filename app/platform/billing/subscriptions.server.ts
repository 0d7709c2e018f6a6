/**
 * Subscriptions and one-time charges (contract 13): an app asks (PENDING, 48 hours), the merchant
 * approves (ACTIVE) or declines; the app, the merchant or an uninstall cancels. One ACTIVE
 * subscription running in periods per installation: approving a new one replaces the old, whose
 * period is closed prorated. Usage claims room under the cap in one conditional update.
 */
import { and, desc, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database, Db, Tx } from "../../../db/client";
import {
  appSubscriptions,
  apps,
  installations,
  usageRecords,
  type App,
  type AppSubscription,
  type Business,
  type Installation,
  type UsageRecord,
} from "../../../db/schema";
import type { Env } from "../core/env.server";
import { ApiError } from "../core/http.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { uniqueViolation } from "../../../db/sql";
import { newestPageWithTotal, type Page } from "../core/paging.server";
import { formatMoney, money } from "../core/money";
import { MoneySchema, PositiveMoney, type StoredPlan } from "../shapes/pricing";
import { DAY_MS, closeEndedPeriods, closePeriod, periodDays, writeLine } from "./closing.server";
import { notifySubscription } from "./notify.server";

export const PENDING_FOR_MS = 48 * 3600 * 1000;

/** Who calls: the app's installation (the App API wrapper's caller, without importing it). */
export type BillingCaller = { installation: Installation; business: Business; app: { id: string } };

// ------------------------------------------------------------------------------------------------
// Input

export const SubscriptionCreate = z
  .object({
    planId: z.string().min(1, "is required").max(40),
    returnUrl: z.string().url("must be an absolute URL").max(2000),
  })
  .strict()
  .meta({ id: "BillingSubscriptionCreate" });

export const ChargeCreate = z
  .object({
    name: z.string().trim().min(1, "is required").max(100),
    price: PositiveMoney,
    returnUrl: z.string().url("must be an absolute URL").max(2000),
  })
  .strict()
  .meta({ id: "BillingChargeCreate" });

export const UsageCreate = z
  .object({
    description: z.string().trim().min(1, "is required").max(255),
    amount: PositiveMoney,
  })
  .strict()
  .meta({ id: "BillingUsageCreate" });

export const CapRaise = z.object({ usageCap: MoneySchema }).strict().meta({ id: "BillingCapRaise" });

// ------------------------------------------------------------------------------------------------
// Answers

export function confirmationUrl(env: Pick<Env, "publicUrl">, id: string) {
  return `${env.publicUrl}/billing/confirm/${id}`;
}

/** A subscription or charge as the App API answers it (money in the 2026-11-27 shape). */
export function serializeSubscription(sub: AppSubscription, env: Pick<Env, "publicUrl">) {
  const c = sub.plan.currency;
  return {
    id: sub.id,
    kind: sub.kind,
    status: sub.status,
    planId: sub.planId,
    name: sub.plan.name,
    test: sub.test,
    confirmationUrl: confirmationUrl(env, sub.id),
    ...(sub.plan.price !== null ? { price: money(sub.plan.price, c) } : {}),
    ...(sub.plan.interval ? { interval: sub.plan.interval } : {}),
    ...(sub.trialEndsAt ? { trialEndsAt: sub.trialEndsAt.toISOString() } : {}),
    ...(sub.currentPeriodEnd ? { currentPeriodEnd: sub.currentPeriodEnd.toISOString() } : {}),
    ...(sub.usageCap !== null ? { usageCap: money(sub.usageCap, c), usageBalance: money(sub.usageBalance, c) } : {}),
    createdAt: sub.createdAt.toISOString(),
    activatedAt: sub.activatedAt?.toISOString() ?? null,
    endedAt: sub.endedAt?.toISOString() ?? null,
  };
}

export function serializeUsage(r: UsageRecord, sub: AppSubscription) {
  const c = sub.plan.currency;
  return {
    id: r.id,
    subscriptionId: r.subscriptionId,
    description: r.description,
    amount: money(r.amount, c),
    usageBalance: money(sub.usageBalance, c),
    usageCap: money(sub.usageCap ?? 0, c),
    createdAt: r.createdAt.toISOString(),
  };
}

// ------------------------------------------------------------------------------------------------
// The app's side

/** The origins an app's returnUrl may be on: those of its redirectUrl and webhookUrl. */
export function appOrigins(app: Pick<App, "redirectUrl" | "webhookUrl">): string[] {
  return [...new Set([app.redirectUrl, app.webhookUrl].filter((u): u is string => !!u).map((u) => new URL(u).origin))];
}

function checkReturnUrl(app: App, returnUrl: string) {
  const origins = appOrigins(app);
  let origin: string;
  try {
    origin = new URL(returnUrl).origin;
  } catch {
    throw new ApiError(400, "returnUrl: must be an absolute URL");
  }
  if (!origins.includes(origin))
    throw new ApiError(400, `returnUrl: must be on one of the app's origins (${origins.join(", ")})`);
}

async function appOf(db: Db, appId: string): Promise<App> {
  const [app] = await db.select().from(apps).where(eq(apps.id, appId));
  return app;
}

/** Test charges: a test installation, or any installation on a developer's sandbox business. */
const isTest = (caller: BillingCaller) => caller.installation.isTestInstall || caller.business.isSandbox;

/** The plans an installation subscribes to: the approved ones; a test installation of an app in draft tries the developer's. */
function plansFor(app: App, caller: BillingCaller): StoredPlan[] {
  return caller.installation.isTestInstall && app.status !== "APPROVED" ? app.pricing : app.approvedPricing;
}

async function insertPending(
  db: Db,
  caller: BillingCaller,
  row: { kind: "RECURRING" | "ONE_TIME"; plan: StoredPlan; returnUrl: string },
) {
  const t = now();
  const [sub] = await db
    .insert(appSubscriptions)
    .values({
      id: newId("sub"),
      installationId: caller.installation.id,
      appId: caller.app.id,
      businessId: caller.business.id,
      kind: row.kind,
      planId: row.kind === "ONE_TIME" && row.plan.id.startsWith("charge:") ? null : row.plan.id,
      plan: row.plan,
      test: isTest(caller),
      status: "PENDING",
      returnUrl: row.returnUrl,
      expiresAt: new Date(t.getTime() + PENDING_FOR_MS),
      usageCap: row.plan.usageCap,
      createdAt: t,
      updatedAt: t,
    })
    .returning();
  return sub;
}

/** POST /app-api/billing/subscriptions: a PENDING subscription to one of the app's plans. */
export async function createSubscription(db: Db, caller: BillingCaller, input: z.output<typeof SubscriptionCreate>) {
  const app = await appOf(db, caller.app.id);
  const plans = plansFor(app, caller);
  const plan = plans.find((p) => p.id === input.planId);
  if (!plan)
    throw new ApiError(
      400,
      plans.length
        ? `planId: the app has no plan "${input.planId}" (its plans: ${plans.map((p) => p.id).join(", ")})`
        : `planId: the app has no plan "${input.planId}" (its listing has no pricing plans)`,
    );
  if (plan.kind === "FREE") throw new ApiError(400, `planId: "${plan.id}" is a FREE plan: nothing to approve`);
  checkReturnUrl(app, input.returnUrl);
  return insertPending(db, caller, {
    kind: plan.kind === "ONE_TIME" ? "ONE_TIME" : "RECURRING",
    plan,
    returnUrl: input.returnUrl,
  });
}

/** POST /app-api/billing/charges: a PENDING one-time charge of any name and price. */
export async function createCharge(db: Db, caller: BillingCaller, input: z.output<typeof ChargeCreate>) {
  const app = await appOf(db, caller.app.id);
  checkReturnUrl(app, input.returnUrl);
  const plan: StoredPlan = {
    id: `charge:${newId("c", 12).slice(2)}`,
    name: input.name,
    kind: "ONE_TIME",
    price: input.price.amount,
    currency: input.price.currency,
    interval: null,
    trialDays: 0,
    usageCap: null,
    usageTerms: null,
  };
  return insertPending(db, caller, { kind: "ONE_TIME", plan, returnUrl: input.returnUrl });
}

/** The installation's own subscription; another installation's id is 404. Lazily expires a stale PENDING one. */
export async function getInstallationSubscription(db: Database, installationId: string, id: string) {
  const [sub] = await db
    .select()
    .from(appSubscriptions)
    .where(and(eq(appSubscriptions.id, id), eq(appSubscriptions.installationId, installationId)));
  if (!sub) throw new ApiError(404, "Subscription not found");
  return expireIfStale(db, sub);
}

async function expireIfStale(db: Database, sub: AppSubscription): Promise<AppSubscription> {
  if (sub.status !== "PENDING" || sub.expiresAt > now()) return sub;
  return db.transaction(async (tx) => {
    const [expired] = await tx
      .update(appSubscriptions)
      .set({ status: "EXPIRED", endedAt: sub.expiresAt, updatedAt: now() })
      .where(and(eq(appSubscriptions.id, sub.id), eq(appSubscriptions.status, "PENDING")))
      .returning();
    if (!expired) {
      const [current] = await tx.select().from(appSubscriptions).where(eq(appSubscriptions.id, sub.id));
      return current;
    }
    await notifySubscription(tx, expired, "STATUS_CHANGED");
    return expired;
  });
}

export async function listInstallationSubscriptions(db: Db, installationId: string, page: Page) {
  const where = eq(appSubscriptions.installationId, installationId);
  const identity = { list: "subscriptions", scope: installationId };
  return newestPageWithTotal(db, db.select().from(appSubscriptions), { from: appSubscriptions, where, identity }, page);
}

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

// ------------------------------------------------------------------------------------------------
// Ending, approving, declining (the app's, the merchant's and uninstall's side)

/**
 * Ends an ACTIVE subscription now in the caller's transaction: its period is closed prorated (a
 * one-time charge was billed when approved). A subscription REPLACED by a newly approved one bills
 * its whole days only: the day of the change is the new subscription's, whose period starts now
 * (decision 050).
 */
async function endActive(tx: Tx, sub: AppSubscription, by: "APP" | "MERCHANT" | "UNINSTALL" | "REPLACED") {
  const t = now();
  let current = sub;
  if (sub.kind === "RECURRING") {
    // periods that ended before the job came round are closed whole first
    current = await closeEndedPeriods(tx, current, t);
    current = await closePeriod(tx, current, t, true, by === "REPLACED" ? "whole" : "started");
  }
  const [ended] = await tx
    .update(appSubscriptions)
    .set({ status: "CANCELLED", endedAt: t, endedBy: by, updatedAt: t })
    .where(eq(appSubscriptions.id, current.id))
    .returning();
  await notifySubscription(tx, ended, "STATUS_CHANGED");
  return ended;
}

async function lockSubscription(tx: Tx, where: ReturnType<typeof and>) {
  const [sub] = await tx.select().from(appSubscriptions).where(where).for("update");
  if (!sub) throw new ApiError(404, "Subscription not found");
  return sub;
}

/** DELETE /app-api/billing/subscriptions/<id> (the app) and the merchant's cancel: ACTIVE -> CANCELLED. */
export async function cancelSubscription(
  db: Database,
  owner: { installationId: string } | { businessId: string },
  id: string,
  by: "APP" | "MERCHANT",
) {
  return db.transaction(async (tx) => {
    const sub = await lockSubscription(
      tx,
      and(
        eq(appSubscriptions.id, id),
        "installationId" in owner
          ? eq(appSubscriptions.installationId, owner.installationId)
          : eq(appSubscriptions.businessId, owner.businessId),
      ),
    );
    if (sub.status !== "ACTIVE") throw new ApiError(409, `The subscription is ${sub.status}, not ACTIVE`);
    return endActive(tx, sub, by);
  });
}

/** Uninstall (installs.server.ts, in its transaction): every ACTIVE subscription of the installation ends; PENDING ones are declined. */
export async function endForUninstall(tx: Tx, installationId: string) {
  const subs = await tx
    .select()
    .from(appSubscriptions)
    .where(
      and(
        eq(appSubscriptions.installationId, installationId),
        sql`${appSubscriptions.status} in ('ACTIVE', 'PENDING')`,
      ),
    )
    .for("update");
  for (const sub of subs) {
    if (sub.status === "ACTIVE") await endActive(tx, sub, "UNINSTALL");
    else {
      const [declined] = await tx
        .update(appSubscriptions)
        .set({ status: "DECLINED", endedAt: now(), endedBy: "UNINSTALL", updatedAt: now() })
        .where(eq(appSubscriptions.id, sub.id))
        .returning();
      await notifySubscription(tx, declined, "STATUS_CHANGED");
    }
  }
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
export async function approveSubscription(db: Database, businessId: string, id: string): Promise<AppSubscription> {
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
    return { sub: active };
  });
  if (result.refusal) throw result.refusal;
  return result.sub!;
}

/** The merchant declines: PENDING -> DECLINED. */
export async function declineSubscription(db: Database, businessId: string, id: string): Promise<AppSubscription> {
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
    return { sub: declined };
  });
  if (result.refusal) throw result.refusal;
  return result.sub!;
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

/** Where Approve / Decline send the merchant back: the app's returnUrl with the outcome. */
export function returnUrlWith(sub: AppSubscription): string {
  const url = new URL(sub.returnUrl);
  url.searchParams.set("subscription_id", sub.id);
  url.searchParams.set("status", sub.status === "ACTIVE" ? "ACTIVE" : "DECLINED");
  return url.toString();
}
