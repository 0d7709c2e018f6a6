/**
 * An app's pricing plans (contract 13): the listing's input schema, the ONE serializer of pricing
 * plans (`planOut`; money through core/money's `money`) as `{amount, currency}` in integer minor
 * units (billing exists from API version 2026-11-27; the developer endpoints are not versioned:
 * decision 043), and the words the
 * marketplace shows ("Free", "From $9.99/month", "14-day trial"). No server code: pages use it too.
 */
import { z } from "zod";
import type { StoredPlan } from "../../../db/schema/billing";
import { formatMoney, money } from "../core/money";

export type { StoredPlan };

export const PLAN_KINDS = ["FREE", "ONE_TIME", "RECURRING", "USAGE"] as const;
export const PLAN_INTERVALS = ["EVERY_30_DAYS", "ANNUAL"] as const;

/** Days in one period of an interval. */
export const INTERVAL_DAYS: Record<(typeof PLAN_INTERVALS)[number], number> = { EVERY_30_DAYS: 30, ANNUAL: 365 };

/** Money as the 2026-11-27 version carries it: an integer of minor units and an ISO 4217 code. */
export const MoneySchema = z
  .object({
    amount: z
      .number({ message: "must be a number" })
      .int("must be a whole number of minor units (cents)")
      .min(0, "must not be negative")
      .max(100_000_000_000, "is too large"),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, "must be an ISO 4217 code such as USD")
      .default("USD"),
  })
  .strict()
  .meta({ id: "MoneyInput" });

/** A positive amount (a usage record, a one-time charge). */
export const PositiveMoney = MoneySchema.refine((m) => m.amount > 0, {
  message: "must be more than 0",
  path: ["amount"],
});

export type Money = z.output<typeof MoneySchema>;

export const PlanInput = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, "must be 1-40 lowercase letters, digits, - or _")
      .describe("the plan's id, unique within the app; apps name it as planId"),
    name: z.string().trim().min(1, "is required").max(60, "must be at most 60 characters"),
    kind: z.enum(PLAN_KINDS, { message: `must be one of ${PLAN_KINDS.join(", ")}` }),
    price: MoneySchema.optional(),
    interval: z.enum(PLAN_INTERVALS, { message: `must be one of ${PLAN_INTERVALS.join(", ")}` }).optional(),
    trialDays: z.number().int("must be a whole number").min(0).max(365, "must be at most 365").optional(),
    usageCap: MoneySchema.optional(),
    usageTerms: z.string().trim().max(500).optional(),
  })
  .strict()
  .superRefine((p, ctx) => {
    const need = (field: keyof typeof p, why: string) => ctx.addIssue({ code: "custom", path: [field], message: why });
    if (p.kind === "FREE" && (p.price || p.usageCap)) need("price", "a FREE plan has no price or usage cap");
    if ((p.kind === "ONE_TIME" || p.kind === "RECURRING") && (!p.price || p.price.amount <= 0))
      need("price", `is required (more than 0) for a ${p.kind} plan`);
    if (p.kind === "RECURRING" && !p.interval) need("interval", "is required for a RECURRING plan");
    if (p.kind === "USAGE" && !p.usageCap) need("usageCap", "is required for a USAGE plan");
    if (p.kind === "USAGE" && p.price) need("price", "a USAGE plan charges usage only (use RECURRING with usageCap)");
    if (p.kind === "USAGE" && p.interval === "ANNUAL") need("interval", "a USAGE plan runs in 30-day periods");
    if ((p.kind === "ONE_TIME" || p.kind === "FREE") && (p.interval || p.trialDays || p.usageCap))
      need("interval", `a ${p.kind} plan has no interval, trial or usage cap`);
    if (p.usageCap && p.usageCap.amount <= 0) need("usageCap", "must be more than 0");
    if (p.usageCap && p.price && p.usageCap.currency !== p.price.currency)
      need("usageCap", "must be in the price's currency");
  })
  .meta({ id: "PricingPlanInput" });

export const PricingInput = z
  .array(PlanInput)
  .max(10, "at most 10 plans")
  .superRefine((plans, ctx) => {
    const seen = new Set<string>();
    plans.forEach((p, i) => {
      if (seen.has(p.id)) ctx.addIssue({ code: "custom", path: [i, "id"], message: `"${p.id}" is used twice` });
      seen.add(p.id);
    });
  });

/** A plan as the listing input gives it -> as stored (minor units and one currency). */
export function planIn(p: z.output<typeof PlanInput>): StoredPlan {
  return {
    id: p.id,
    name: p.name,
    kind: p.kind,
    price: p.price?.amount ?? null,
    currency: p.price?.currency ?? p.usageCap?.currency ?? "USD",
    interval: p.kind === "RECURRING" || p.kind === "USAGE" ? (p.interval ?? "EVERY_30_DAYS") : null,
    trialDays: p.trialDays ?? 0,
    usageCap: p.usageCap?.amount ?? null,
    usageTerms: p.usageTerms ?? null,
  };
}

/** A stored plan as the app record and the App API show it. */
export function planOut(p: StoredPlan) {
  return {
    id: p.id,
    name: p.name,
    kind: p.kind,
    ...(p.price !== null ? { price: money(p.price, p.currency) } : {}),
    ...(p.interval ? { interval: p.interval } : {}),
    ...(p.trialDays ? { trialDays: p.trialDays } : {}),
    ...(p.usageCap !== null ? { usageCap: money(p.usageCap, p.currency) } : {}),
    ...(p.usageTerms ? { usageTerms: p.usageTerms } : {}),
  };
}

export const PlanOut = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(PLAN_KINDS),
    price: MoneySchema.optional(),
    interval: z.enum(PLAN_INTERVALS).optional(),
    trialDays: z.number().int().optional(),
    usageCap: MoneySchema.optional(),
    usageTerms: z.string().optional(),
  })
  .meta({ id: "PricingPlan" });

const per = (interval: StoredPlan["interval"]) => (interval === "ANNUAL" ? "year" : "month");

/** "$9.99/month", "$99.00 once", "Free", "Usage up to $50.00/month". */
export function planPriceText(p: StoredPlan, locale = "en-US"): string {
  const money = (m: number) => formatMoney(m, p.currency, locale);
  if (p.kind === "FREE") return "Free";
  if (p.kind === "ONE_TIME") return `${money(p.price ?? 0)} once`;
  if (p.kind === "USAGE") return `Usage up to ${money(p.usageCap ?? 0)}/month`;
  const base = `${money(p.price ?? 0)}/${per(p.interval)}`;
  return p.usageCap !== null ? `${base} + usage up to ${money(p.usageCap)}` : base;
}

/**
 * The marketplace card's words: "Free", "From $9.99/month", with "14-day trial" when any plan has one.
 * Prices are compared within one currency only (minor units of two currencies say nothing about
 * which is cheaper; decision 050): an app priced in several currencies shows the cheapest plan of
 * each, in the order its plans list them: "From $5.00/month or ¥600/month".
 */
export function pricingSummary(plans: StoredPlan[], locale = "en-US"): { price: string; trial: string | null } | null {
  if (plans.length === 0) return null;
  const trialDays = Math.max(0, ...plans.map((p) => p.trialDays));
  const trial = trialDays > 0 ? `${trialDays}-day trial` : null;
  const paid = plans.filter((p) => p.kind !== "FREE");
  if (paid.length === 0) return { price: "Free", trial };
  const hasFree = paid.length < plans.length;
  const cheapestOf = new Map<string, StoredPlan>();
  for (const p of paid) {
    const best = cheapestOf.get(p.currency);
    if (!best || (p.price ?? 0) < (best.price ?? 0)) cheapestOf.set(p.currency, p);
  }
  const text = [...cheapestOf.values()]
    .map((cheapest) =>
      cheapest.kind === "RECURRING"
        ? `${formatMoney(cheapest.price ?? 0, cheapest.currency, locale)}/${per(cheapest.interval)}`
        : planPriceText(cheapest, locale),
    )
    .join(" or ");
  return { price: hasFree ? `Free plan; paid from ${text}` : `From ${text}`, trial };
}

/** A plan as the marketplace's plan table and the consent screen show it. */
export function planRow(p: StoredPlan, locale = "en-US") {
  return {
    id: p.id,
    name: p.name,
    price: planPriceText(p, locale),
    trial: p.trialDays > 0 ? `${p.trialDays}-day trial` : null,
    usage:
      p.usageCap !== null
        ? (p.usageTerms ?? `Usage billed up to ${formatMoney(p.usageCap, p.currency, locale)}`)
        : null,
  };
}
export type PlanRow = ReturnType<typeof planRow>;
