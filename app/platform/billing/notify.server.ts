/**
 * `app_subscription.updated` (contract 13): no scope, no subscription; sent to the app's webhook URL
 * (the installation's install registration, like business.data_erasure) on every status change and
 * when 90% of a usage cap is used, in the transaction of the change.
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { webhooks, type AppSubscription } from "../../../db/schema";
import { deliverToInstallRegistration } from "../events/special-sends.server";
import { event } from "../shapes/events";
import { money } from "../core/money";

export const SUBSCRIPTION_EVENT = "app_subscription.updated" as const;

/** Why the event was sent. */
export type SubscriptionEventReason = "STATUS_CHANGED" | "CAP_NEARLY_REACHED" | "CAP_CHANGED";

/**
 * The payload of app_subscription.updated: built here and nowhere else, so that its schema is
 * registered against this one function (the events catalogue).
 */
export function appSubscriptionUpdatedPayload(sub: AppSubscription, reason: SubscriptionEventReason) {
  const currency = sub.plan.currency;
  return {
    subscriptionId: sub.id,
    installationId: sub.installationId,
    businessId: sub.businessId,
    planId: sub.planId,
    name: sub.plan.name,
    kind: sub.kind,
    status: sub.status,
    test: sub.test,
    reason,
    trialEndsAt: sub.trialEndsAt?.toISOString() ?? null,
    currentPeriodEnd: sub.currentPeriodEnd?.toISOString() ?? null,
    usageCap: sub.usageCap !== null ? money(sub.usageCap, currency) : null,
    usageBalance: sub.usageCap !== null ? money(sub.usageBalance, currency) : null,
    updatedAt: sub.updatedAt.toISOString(),
  };
}

/** Queues app_subscription.updated for the subscription's installation (nothing when the app has no webhook URL). */
export async function notifySubscription(tx: Db, sub: AppSubscription, reason: SubscriptionEventReason) {
  const [webhook] = await tx
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(eq(webhooks.installationId, sub.installationId), eq(webhooks.isInstallDefault, true)));
  if (!webhook) return null;
  return deliverToInstallRegistration(
    tx,
    { id: sub.installationId, appId: sub.appId, businessId: sub.businessId, isTestInstall: sub.test },
    webhook.id,
    event(sub.businessId, SUBSCRIPTION_EVENT, appSubscriptionUpdatedPayload(sub, reason)),
  );
}
