/** What the billing API reads and answers (contract 13): the input schemas and the JSON shapes of subscriptions and usage records. */
import { z } from "zod";
import type { AppSubscription, UsageRecord } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { money } from "../core/money";
import { MoneySchema, PositiveMoney } from "../shapes/pricing";

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

/** Where Approve / Decline send the merchant back: the app's returnUrl with the outcome. */
export function returnUrlWith(sub: AppSubscription): string {
  const url = new URL(sub.returnUrl);
  url.searchParams.set("subscription_id", sub.id);
  url.searchParams.set("status", sub.status === "ACTIVE" ? "ACTIVE" : "DECLINED");
  return url.toString();
}
