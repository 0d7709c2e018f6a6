import { pgTable, text, boolean, jsonb, index, uniqueIndex, bigint } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { createdAt, id, installationOwner, timestamps, ts } from "./columns";

/** A plan as an app's listing holds it: money in integer minor units of `currency` (decision 043). */
export type StoredPlan = {
  id: string;
  name: string;
  kind: "FREE" | "ONE_TIME" | "RECURRING" | "USAGE";
  /** minor units; null for FREE and USAGE-only plans */
  price: number | null;
  currency: string;
  interval: "EVERY_30_DAYS" | "ANNUAL" | null;
  trialDays: number;
  /** minor units per period; null when the plan has no usage charges */
  usageCap: number | null;
  usageTerms: string | null;
};

export const SUBSCRIPTION_STATUSES = ["PENDING", "ACTIVE", "DECLINED", "EXPIRED", "CANCELLED"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * A charge an app asked a merchant for: a recurring or usage plan (a period at a time) or a one-time
 * charge. `plan` is the snapshot the merchant approved: a later pricing change never reaches it.
 */
export const appSubscriptions = pgTable(
  "app_subscriptions",
  {
    id: id(),
    ...installationOwner(),
    /** RECURRING (also USAGE plans: both run in periods) or ONE_TIME */
    kind: text("kind", { enum: ["RECURRING", "ONE_TIME"] }).notNull(),
    planId: text("plan_id"),
    plan: jsonb("plan").$type<StoredPlan>().notNull(),
    test: boolean("test").notNull().default(false),
    status: text("status", { enum: SUBSCRIPTION_STATUSES }).notNull().default("PENDING"),
    returnUrl: text("return_url").notNull(),
    expiresAt: ts("expires_at").notNull(),
    activatedAt: ts("activated_at"),
    endedAt: ts("ended_at"),
    /** who ended it: APP, MERCHANT, UNINSTALL, REPLACED */
    endedBy: text("ended_by"),
    trialEndsAt: ts("trial_ends_at"),
    currentPeriodStart: ts("current_period_start"),
    currentPeriodEnd: ts("current_period_end"),
    /** usage charged in the current period (minor units); claimed in one conditional update */
    usageBalance: bigint("usage_balance", { mode: "number" }).notNull().default(0),
    usageCap: bigint("usage_cap", { mode: "number" }),
    /** the period start at which the 90%-of-cap webhook was sent (once per period) */
    capWarnedFor: ts("cap_warned_for"),
    /** set once the last (partial) period or the one-time charge has been written to an invoice */
    closedAt: ts("closed_at"),
    ...timestamps(),
  },
  (t) => [
    index("app_subscriptions_installation_idx").on(t.installationId, t.createdAt.desc(), t.id.desc()),
    index("app_subscriptions_business_idx").on(t.businessId, t.status),
    index("app_subscriptions_app_idx").on(t.appId, t.createdAt),
    // one ACTIVE subscription that runs in periods per installation
    uniqueIndex("app_subscriptions_one_active_key")
      .on(t.installationId)
      .where(sql`status = 'ACTIVE' and kind = 'RECURRING'`),
    index("app_subscriptions_due_idx")
      .on(t.currentPeriodEnd)
      .where(sql`closed_at is null and activated_at is not null`),
  ],
);

/** One usage charge under a subscription's cap. */
export const usageRecords = pgTable(
  "usage_records",
  {
    id: id(),
    subscriptionId: text("subscription_id")
      .notNull()
      .references(() => appSubscriptions.id),
    businessId: text("business_id").notNull(),
    description: text("description").notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    /** the period the record belongs to (its subscription's currentPeriodStart when recorded) */
    periodStart: ts("period_start").notNull(),
    idempotencyKey: text("idempotency_key"),
    createdAt: createdAt(),
  },
  (t) => [
    index("usage_records_period_idx").on(t.subscriptionId, t.periodStart),
    uniqueIndex("usage_records_idempotency_key")
      .on(t.subscriptionId, t.idempotencyKey)
      .where(sql`idempotency_key is not null`),
  ],
);

/** A business's invoice of one calendar month (UTC, `YYYY-MM`). */
export const invoices = pgTable(
  "invoices",
  {
    id: id(),
    businessId: text("business_id").notNull(),
    month: text("month").notNull(),
    /** A sandbox's invoice (contract 19): its lines are test lines, never paid, never in the ledger or earnings. */
    test: boolean("test").notNull().default(false),
    ...timestamps(),
  },
  (t) => [uniqueIndex("invoices_business_month_key").on(t.businessId, t.month)],
);

/**
 * One line of an invoice; `key` makes the closing of a period idempotent (a second run writes nothing).
 * A line is the merchant's view of ONE ledger transaction (`transactionId`, unique): its money is that
 * transaction's entries, and, like the ledger, a line is never changed or removed (a trigger refuses
 * UPDATE and DELETE, see the migration; decision 050).
 */
export const invoiceLines = pgTable(
  "invoice_lines",
  {
    id: id(),
    invoiceId: text("invoice_id")
      .notNull()
      .references(() => invoices.id),
    key: text("key").notNull(),
    businessId: text("business_id").notNull(),
    appId: text("app_id").notNull(),
    subscriptionId: text("subscription_id").notNull(),
    /** RECURRING, USAGE or ONE_TIME */
    kind: text("kind").notNull(),
    description: text("description").notNull(),
    periodStart: ts("period_start"),
    periodEnd: ts("period_end"),
    amount: bigint("amount", { mode: "number" }).notNull(),
    currency: text("currency").notNull(),
    /** null only on a test invoice's line (a sandbox's test subscription: no money moves, decision 076) */
    transactionId: text("transaction_id").references(() => ledgerTransactions.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("invoice_lines_key").on(t.key),
    uniqueIndex("invoice_lines_transaction_key").on(t.transactionId),
    index("invoice_lines_invoice_idx").on(t.invoiceId),
    index("invoice_lines_app_idx").on(t.appId, t.createdAt),
  ],
);

/** One ledger transaction: its entries sum to zero per currency (checked by a trigger, see the migration). */
export const ledgerTransactions = pgTable(
  "ledger_transactions",
  {
    id: id(),
    /** unique: the same charge is never posted twice */
    key: text("key").notNull(),
    kind: text("kind").notNull(),
    /** the calendar month (UTC, YYYY-MM) the transaction counts in */
    month: text("month").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("ledger_transactions_key").on(t.key)],
);

/**
 * A ledger entry. Accounts: `merchant:<businessId>` (what the merchant owes, positive),
 * `developer:<appId>` (what the app's developer earned, negative), `platform:fees` (negative).
 */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: id(),
    transactionId: text("transaction_id")
      .notNull()
      .references(() => ledgerTransactions.id),
    account: text("account").notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    currency: text("currency").notNull(),
    appId: text("app_id").notNull(),
    businessId: text("business_id").notNull(),
    month: text("month").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("ledger_entries_tx_idx").on(t.transactionId),
    index("ledger_entries_app_month_idx").on(t.appId, t.month),
    index("ledger_entries_account_idx").on(t.account, t.month),
  ],
);

export type AppSubscription = typeof appSubscriptions.$inferSelect;
export type UsageRecord = typeof usageRecords.$inferSelect;
export type Invoice = typeof invoices.$inferSelect;
export type InvoiceLine = typeof invoiceLines.$inferSelect;
