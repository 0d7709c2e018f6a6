/**
 * Subscriptions and one-time charges (contract 13): an app asks (PENDING, 48 hours), the merchant
 * approves (ACTIVE) or declines; the app, the merchant or an uninstall cancels. One ACTIVE
 * subscription running in periods per installation: approving a new one replaces the old, whose
 * period is closed prorated. Usage claims room under the cap in one conditional update.
 */
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database, Db, Tx } from "../../../db/client";
import { appSubscriptions, apps, type App } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { newestPageWithTotal, type Page } from "../core/paging.server";
import { type StoredPlan } from "../shapes/pricing";
import { notifySubscription } from "./notify.server";
import { PENDING_FOR_MS, endActive, expireIfStale, lockSubscription, type BillingCaller } from "./lifecycle.server";
import { ChargeCreate, SubscriptionCreate } from "./subscription-shapes";

export { PENDING_FOR_MS, type BillingCaller } from "./lifecycle.server";
export {
  SubscriptionCreate,
  ChargeCreate,
  UsageCreate,
  CapRaise,
  confirmationUrl,
  serializeSubscription,
  serializeUsage,
  returnUrlWith,
} from "./subscription-shapes";
export { USAGE_RETRY_WINDOW_MS, recordUsage, raiseUsageCap } from "./usage.server";
export { approveSubscription, declineSubscription, getForConfirmation } from "./approval.server";

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

export async function listInstallationSubscriptions(db: Db, installationId: string, page: Page) {
  const where = eq(appSubscriptions.installationId, installationId);
  const identity = { list: "subscriptions", scope: installationId };
  return newestPageWithTotal(db, db.select().from(appSubscriptions), { from: appSubscriptions, where, identity }, page);
}

// ------------------------------------------------------------------------------------------------
// Ending, approving, declining (the app's, the merchant's and uninstall's side)

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
