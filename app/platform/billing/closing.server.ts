/**
 * Period closing (contract 13, decision 044): a subscription's period becomes invoice lines (the
 * recurring price, trial days free, prorated to the day when the period ends early; the period's
 * usage) and ledger transactions, in ONE database transaction with the move to the next period.
 * Every line and ledger transaction has a unique key (subscription, period start, kind), and a
 * period is closed only while its row is locked and still due: a second run writes nothing, and a
 * worker killed mid-run rolls back whole periods only, which the next run closes.
 */
import { and, eq, lte, sql } from "drizzle-orm";
import type { Database, Db } from "../../../db/client";
import { appSubscriptions, invoiceLines, invoices, usageRecords, type AppSubscription } from "../../../db/schema";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { monthOf, postCharge } from "./ledger.server";
import { INTERVAL_DAYS } from "../shapes/pricing";
import { notifySubscription } from "./notify.server";

export const DAY_MS = 86_400_000;

export const periodDays = (sub: Pick<AppSubscription, "plan">) => INTERVAL_DAYS[sub.plan.interval ?? "EVERY_30_DAYS"];

/**
 * How a period that ends early counts its last, partial day: `started` bills it (a day begun is a day
 * billed: a cancellation or an uninstall); `whole` leaves it to the subscription that replaces this
 * one, whose period starts at the change (decision 050: a plan change bills its day once).
 */
export type LastDay = "started" | "whole";

/**
 * The recurring charge of [start, end) of a period of `days` days: the days after the trial (the
 * last partial day counted as `lastDay` says), at price / days each, rounded half up to the minor
 * unit; a whole period is the price exactly.
 */
export function recurringCharge(
  price: number,
  days: number,
  start: Date,
  end: Date,
  trialEndsAt: Date | null,
  lastDay: LastDay = "started",
): { amount: number; billedDays: number } {
  const from = trialEndsAt && trialEndsAt > start ? trialEndsAt : start;
  if (end <= from) return { amount: 0, billedDays: 0 };
  const round = lastDay === "started" ? Math.ceil : Math.floor;
  const billedDays = Math.min(days, round((end.getTime() - from.getTime()) / DAY_MS));
  if (billedDays === 0) return { amount: 0, billedDays: 0 };
  if (billedDays === days) return { amount: price, billedDays };
  return { amount: Math.floor((price * billedDays * 2 + days) / (2 * days)), billedDays };
}

/** The invoice of a business for a month, created on first use (unique per business and month); a sandbox's is a test invoice. */
async function invoiceFor(tx: Db, businessId: string, month: string, test = false): Promise<string> {
  await tx
    .insert(invoices)
    .values({ id: newId("inv"), businessId, month, test })
    .onConflictDoNothing({ target: [invoices.businessId, invoices.month] });
  const [row] = await tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.businessId, businessId), eq(invoices.month, month)));
  return row.id;
}

/**
 * One invoice line and its ledger transaction under one key; nothing when the key was already
 * written. A test subscription's line (a sandbox's, contract 19) goes on a test invoice without a
 * ledger transaction: never paid, never in the developer's earnings.
 */
export async function writeLine(
  tx: Db,
  sub: AppSubscription,
  line: {
    key: string;
    kind: string;
    description: string;
    amount: number;
    at: Date;
    periodStart?: Date;
    periodEnd?: Date;
  },
) {
  if (line.amount <= 0) return false;
  const month = monthOf(line.at);
  if (sub.test) return writeTestLine(tx, sub, month, line);
  const transactionId = await postCharge(tx, {
    key: line.key,
    kind: line.kind,
    month,
    appId: sub.appId,
    businessId: sub.businessId,
    gross: line.amount,
    currency: sub.plan.currency,
  });
  if (!transactionId) return false;
  await tx.insert(invoiceLines).values(await lineRow(tx, sub, month, line, transactionId));
  return true;
}

/** An invoice line of the subscription's month (its test invoice when `transactionId` is null: contract 19). */
async function lineRow(
  tx: Db,
  sub: AppSubscription,
  month: string,
  line: Parameters<typeof writeLine>[2],
  transactionId: string | null,
) {
  return {
    id: newId("inl"),
    invoiceId: await invoiceFor(tx, sub.businessId, month, transactionId === null),
    key: line.key,
    businessId: sub.businessId,
    appId: sub.appId,
    subscriptionId: sub.id,
    kind: line.kind,
    description: line.description,
    periodStart: line.periodStart ?? null,
    periodEnd: line.periodEnd ?? null,
    amount: line.amount,
    currency: sub.plan.currency,
    transactionId,
  };
}

async function writeTestLine(
  tx: Db,
  sub: AppSubscription,
  month: string,
  line: Parameters<typeof writeLine>[2],
): Promise<boolean> {
  const written = await tx
    .insert(invoiceLines)
    .values(await lineRow(tx, sub, month, line, null))
    .onConflictDoNothing({ target: invoiceLines.key })
    .returning({ id: invoiceLines.id });
  return written.length > 0;
}

/**
 * Closes the subscription's current period at `end` (its natural end, or earlier on a cancellation
 * or replacement: then prorated, its last partial day counted as `lastDay` says) in the caller's
 * transaction, on a row the caller has locked. `final`: the subscription ends here; otherwise the
 * next period starts with an empty usage balance.
 */
export async function closePeriod(
  tx: Db,
  sub: AppSubscription,
  end: Date,
  final: boolean,
  lastDay: LastDay = "started",
): Promise<AppSubscription> {
  const start = sub.currentPeriodStart!;
  const periodEnd = sub.currentPeriodEnd!;
  const stop = end < periodEnd ? end : periodEnd;
  const days = periodDays(sub);
  const key = `${sub.id}:${start.toISOString()}`;
  if (sub.plan.price) {
    const { amount, billedDays } = recurringCharge(sub.plan.price, days, start, stop, sub.trialEndsAt, lastDay);
    await writeLine(tx, sub, {
      key: `${key}:recurring`,
      kind: "RECURRING",
      description: billedDays === days ? sub.plan.name : `${sub.plan.name} (${billedDays} of ${days} days)`,
      amount,
      at: stop,
      periodStart: start,
      periodEnd: stop,
    });
  }
  if (sub.usageCap !== null) {
    const [usage] = await tx
      .select({ total: sql<string>`coalesce(sum(${usageRecords.amount}), 0)` })
      .from(usageRecords)
      .where(and(eq(usageRecords.subscriptionId, sub.id), eq(usageRecords.periodStart, start)));
    await writeLine(tx, sub, {
      key: `${key}:usage`,
      kind: "USAGE",
      description: `${sub.plan.name}: usage`,
      amount: Number(usage.total),
      at: stop,
      periodStart: start,
      periodEnd: stop,
    });
  }
  const t = now();
  const [next] = await tx
    .update(appSubscriptions)
    .set(
      final
        ? { closedAt: t, updatedAt: t }
        : {
            currentPeriodStart: periodEnd,
            currentPeriodEnd: new Date(periodEnd.getTime() + days * DAY_MS),
            usageBalance: 0,
            capWarnedFor: null,
            updatedAt: t,
          },
    )
    .where(eq(appSubscriptions.id, sub.id))
    .returning();
  return next;
}

/**
 * Closes, whole, every period of a subscription that has ended by `at` (now), in the caller's transaction
 * on a row the caller has locked: what comes after (a usage record, a cancellation, a replacement)
 * then belongs to the current period (decision 050). Answers the subscription as it now is.
 */
export async function closeEndedPeriods(tx: Db, sub: AppSubscription, at = now()): Promise<AppSubscription> {
  let current = sub;
  while (
    current.status === "ACTIVE" &&
    current.kind === "RECURRING" &&
    current.closedAt === null &&
    current.currentPeriodEnd &&
    current.currentPeriodEnd <= at
  )
    current = await closePeriod(tx, current, current.currentPeriodEnd, false);
  return current;
}

/** Closes every due period of one subscription (a job late by several periods closes each), each in its own transaction. */
async function closeDueOf(db: Database, id: string): Promise<number> {
  let closed = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const [sub] = await tx
        .select()
        .from(appSubscriptions)
        .where(
          and(
            eq(appSubscriptions.id, id),
            eq(appSubscriptions.status, "ACTIVE"),
            eq(appSubscriptions.kind, "RECURRING"),
            lte(appSubscriptions.currentPeriodEnd, now()),
          ),
        )
        .for("update", { skipLocked: true });
      if (!sub) return false;
      await closePeriod(tx, sub, sub.currentPeriodEnd!, false);
      return true;
    });
    if (!done) return closed;
    closed++;
  }
}

/** PENDING subscriptions past their 48 hours become EXPIRED (with their webhook). */
export async function expirePending(db: Database): Promise<number> {
  return (await expirePendingOf(db, null)).length;
}

/** The same for one business only (a sandbox's clock, contract 19), or every business (null). */
export async function expirePendingOf(db: Database, businessId: string | null): Promise<AppSubscription[]> {
  return db.transaction(async (tx) => {
    const expired = await tx
      .update(appSubscriptions)
      .set({ status: "EXPIRED", endedAt: sql`${appSubscriptions.expiresAt}`, updatedAt: now() })
      .where(
        and(
          eq(appSubscriptions.status, "PENDING"),
          lte(appSubscriptions.expiresAt, now()),
          businessId ? eq(appSubscriptions.businessId, businessId) : undefined,
        ),
      )
      .returning();
    for (const sub of expired) await notifySubscription(tx, sub, "STATUS_CHANGED");
    return expired;
  });
}

/**
 * The job's work (jobs/tasks/billing__close_periods.ts): expires stale PENDING subscriptions and
 * closes every due period, oldest first, a batch of subscriptions at a time.
 */
export async function closeDuePeriods(db: Database, options: { batch?: number } = {}) {
  const expired = await expirePending(db);
  let periods = 0;
  for (;;) {
    const due = await db
      .select({ id: appSubscriptions.id })
      .from(appSubscriptions)
      .where(
        and(
          eq(appSubscriptions.status, "ACTIVE"),
          eq(appSubscriptions.kind, "RECURRING"),
          lte(appSubscriptions.currentPeriodEnd, now()),
        ),
      )
      .orderBy(appSubscriptions.currentPeriodEnd)
      .limit(options.batch ?? 100);
    if (due.length === 0) break;
    let progress = 0;
    for (const { id } of due) progress += await closeDueOf(db, id);
    periods += progress;
    // rows another worker holds are skipped: it closes them
    if (progress === 0) break;
  }
  return { expired, periods };
}
