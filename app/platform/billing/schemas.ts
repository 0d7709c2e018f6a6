/** The answer schemas of the billing operations (App API and Platform API), for the documents. */
import { z } from "zod";
import { Money as MoneySchema, NextCursor } from "../shapes/api";
import { SUBSCRIPTION_STATUSES } from "../../../db/schema/billing";

const iso = z.string().describe("ISO 8601 timestamp");

/** Billing belongs to the API version released after 2026-11-21 (contract 13; issue 33): older versions answer 404. */
export const BILLING_SINCE = "2026-11-27";

export const BillingSubscription = z
  .object({
    id: z.string(),
    kind: z.enum(["RECURRING", "ONE_TIME"]),
    status: z.enum(SUBSCRIPTION_STATUSES),
    planId: z.string().nullable().describe("the plan's id; null for a one-time charge made with POST /billing/charges"),
    name: z.string(),
    test: z.boolean().describe("a test charge (test installation or sandbox business): never invoiced"),
    confirmationUrl: z.string().describe("the platform page where the merchant approves or declines"),
    price: MoneySchema.optional(),
    interval: z.enum(["EVERY_30_DAYS", "ANNUAL"]).optional(),
    trialEndsAt: iso.optional(),
    currentPeriodEnd: iso.optional(),
    usageCap: MoneySchema.optional(),
    usageBalance: MoneySchema.optional().describe("usage charged in the current period"),
    createdAt: iso,
    activatedAt: iso.nullable(),
    endedAt: iso.nullable(),
  })
  .meta({ id: "BillingSubscription" });

export const BillingSubscriptionList = z
  .object({
    data: z.array(BillingSubscription),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
    nextCursor: NextCursor,
  })
  .meta({ id: "BillingSubscriptionList" });

export const UsageRecordAnswer = z
  .object({
    id: z.string(),
    subscriptionId: z.string(),
    description: z.string(),
    amount: MoneySchema,
    usageBalance: MoneySchema,
    usageCap: MoneySchema,
    createdAt: iso,
  })
  .meta({ id: "BillingUsageRecord" });

export const EarningsAnswer = z
  .object({
    appId: z.string(),
    feeRate: z.string().describe("the platform's fee (decision 043)"),
    months: z.array(
      z.object({
        month: z.string().describe("YYYY-MM (UTC)"),
        currency: z.string().describe("the currency of this row's money (one row per month and currency)"),
        gross: MoneySchema.describe("what merchants were invoiced for the app"),
        fee: MoneySchema.describe("the platform's fee: 15% of each invoice line, rounded down per line"),
        net: MoneySchema.describe("gross less fee: what the developer earned"),
      }),
    ),
    subscribersByPlan: z.array(z.object({ planId: z.string().nullable(), name: z.string(), active: z.number().int() })),
    churn: z.array(z.object({ month: z.string(), started: z.number().int(), cancelled: z.number().int() })),
  })
  .meta({ id: "AppEarnings" });

/** An invoice as the merchant reads it (`GET /merchant/billing/invoices`): every amount is the ledger's (decision 050). */
export const BillingInvoice = z
  .object({
    id: z.string(),
    month: z.string().describe("YYYY-MM (UTC): the month the lines' periods ended or charges were approved in"),
    test: z
      .boolean()
      .describe(
        "a sandbox's test invoice (contract 19): never paid, never in earnings, its lines have no ledger transaction",
      ),
    totals: z
      .array(MoneySchema)
      .describe("one per currency: the sum of the ledger entries of the invoice's lines on the merchant's account"),
    lines: z.array(
      z.object({
        id: z.string(),
        appId: z.string(),
        appName: z.string(),
        subscriptionId: z.string(),
        kind: z.enum(["RECURRING", "USAGE", "ONE_TIME"]),
        description: z.string(),
        periodStart: iso.nullable(),
        periodEnd: iso.nullable(),
        amount: MoneySchema.describe("the line's ledger transaction's entry on the merchant's account"),
        transactionId: z
          .string()
          .nullable()
          .describe("the ledger transaction the line shows (one line per transaction); null on a test invoice's line"),
        createdAt: iso,
      }),
    ),
  })
  .meta({ id: "BillingInvoice" });

export const BillingInvoiceList = z
  .object({
    data: z.array(BillingInvoice),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
  })
  .meta({ id: "BillingInvoiceList" });
