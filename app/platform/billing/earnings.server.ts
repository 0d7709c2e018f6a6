/**
 * What billing shows: the developer's earnings per app and month (sums over the ledger), subscribers
 * by plan and churn; the merchant's subscriptions and invoices with their lines.
 */
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { appSubscriptions, apps, invoiceLines, invoices, ledgerEntries } from "../../../db/schema";
import { now } from "../core/clock.server";
import { money } from "../core/money";
import { pageWithTotal, type Page } from "../core/paging.server";
import { earningsFromLedger, merchantAccount, PLATFORM_FEE_BPS } from "./ledger.server";

/** The 12 calendar months (UTC) ending with the current one, oldest first: ["2025-12", …, "2026-11"]. */
export function lastTwelveMonths(at = now()): string[] {
  const months: string[] = [];
  for (let i = 11; i >= 0; i--) {
    const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - i, 1));
    months.push(d.toISOString().slice(0, 7));
  }
  return months;
}

export async function appEarnings(db: Db, appId: string) {
  const months = lastTwelveMonths();
  const [app] = await db.select({ approvedPricing: apps.approvedPricing }).from(apps).where(eq(apps.id, appId));
  const rows = await earningsFromLedger(db, [appId], { from: months[0], to: months[11] });
  const currencies = [...new Set(rows.map((r) => r.currency))];
  if (currencies.length === 0) currencies.push(app?.approvedPricing[0]?.currency ?? "USD");
  const series = currencies.flatMap((currency) =>
    months.map((month) => {
      const r = rows.find((x) => x.month === month && x.currency === currency);
      return {
        month,
        currency,
        gross: money(r?.gross ?? 0, currency),
        fee: money(r?.fee ?? 0, currency),
        net: money(r?.net ?? 0, currency),
      };
    }),
  );
  const byPlan = await db
    .select({
      planId: appSubscriptions.planId,
      name: sql<string>`min(${appSubscriptions.plan}->>'name')`,
      active: sql<number>`count(*)::int`,
    })
    .from(appSubscriptions)
    .where(
      and(
        eq(appSubscriptions.appId, appId),
        eq(appSubscriptions.status, "ACTIVE"),
        eq(appSubscriptions.kind, "RECURRING"),
        eq(appSubscriptions.test, false),
      ),
    )
    .groupBy(appSubscriptions.planId)
    .orderBy(asc(appSubscriptions.planId));
  const churnRows = await db.execute<{ month: string; started: number; cancelled: number }>(sql`
    select m.month,
      (select count(*)::int from app_subscriptions s where s.app_id = ${appId} and not s.test and s.kind = 'RECURRING'
         and to_char(s.activated_at at time zone 'UTC', 'YYYY-MM') = m.month) as started,
      (select count(*)::int from app_subscriptions s where s.app_id = ${appId} and not s.test and s.kind = 'RECURRING'
         and s.status = 'CANCELLED' and s.ended_by <> 'REPLACED'
         and to_char(s.ended_at at time zone 'UTC', 'YYYY-MM') = m.month) as cancelled
    from unnest(${sql.raw(`array[${months.map((m) => `'${m}'`).join(",")}]::text[]`)}) as m(month)
    order by m.month`);
  return {
    appId,
    feeRate: `${PLATFORM_FEE_BPS / 100}% of every charge`,
    months: series,
    subscribersByPlan: byPlan.map((p) => ({ planId: p.planId, name: p.name, active: Number(p.active) })),
    churn: churnRows.map((r) => ({ month: r.month, started: Number(r.started), cancelled: Number(r.cancelled) })),
  };
}

/**
 * The business's invoices, newest month first, with their lines. Every amount is the ledger's
 * (decision 050): a line's amount is its transaction's entry on the merchant's account, an
 * invoice's totals (one per currency) the sum of those entries; the lines' own `amount` column is
 * never read for money.
 */
export async function listInvoices(db: Db, businessId: string, page: Page) {
  const where = eq(invoices.businessId, businessId);
  const found = await pageWithTotal(
    db,
    db.select().from(invoices),
    { from: invoices, where, order: [desc(invoices.month), desc(invoices.id)] },
    page,
  );
  if (found.rows.length === 0) return { rows: [], total: found.total };
  const ids = found.rows.map((i) => i.id);
  // each line's entry on the merchant's ledger account (a test line has none: contract 19)
  const merchantEntry = and(
    eq(ledgerEntries.transactionId, invoiceLines.transactionId),
    eq(ledgerEntries.account, merchantAccount(businessId)),
  );
  const ofInvoices = and(eq(invoiceLines.businessId, businessId), inArray(invoiceLines.invoiceId, ids));
  const lines = await db
    .select({
      line: invoiceLines,
      appName: apps.name,
      // a test line (no ledger transaction, contract 19) shows its own amount
      amount: sql<number>`coalesce(${ledgerEntries.amount}, ${invoiceLines.amount})`.mapWith(Number),
      currency: sql<string>`coalesce(${ledgerEntries.currency}, ${invoiceLines.currency})`,
    })
    .from(invoiceLines)
    .innerJoin(apps, eq(apps.id, invoiceLines.appId))
    .leftJoin(ledgerEntries, merchantEntry)
    .where(ofInvoices)
    .orderBy(asc(invoiceLines.createdAt), asc(invoiceLines.id));
  const totals = await db
    .select({
      invoiceId: invoiceLines.invoiceId,
      currency: sql<string>`coalesce(${ledgerEntries.currency}, ${invoiceLines.currency})`,
      amount: sql<string>`sum(coalesce(${ledgerEntries.amount}, ${invoiceLines.amount}))`,
    })
    .from(invoiceLines)
    .leftJoin(ledgerEntries, merchantEntry)
    .where(ofInvoices)
    .groupBy(invoiceLines.invoiceId, sql`2`)
    .orderBy(sql`2`);
  return {
    total: found.total,
    rows: found.rows.map((invoice) => ({
      invoice,
      lines: lines
        .filter((l) => l.line.invoiceId === invoice.id)
        .map((l) => ({ line: l.line, appName: l.appName, amount: money(l.amount, l.currency) })),
      totals: totals.filter((t) => t.invoiceId === invoice.id).map((t) => money(Number(t.amount), t.currency)),
    })),
  };
}

export type InvoiceRow = Awaited<ReturnType<typeof listInvoices>>["rows"][number];

/** An invoice as `GET /merchant/billing/invoices` answers it: money `{amount, currency}`, from the ledger. */
export function serializeInvoice({ invoice, lines, totals }: InvoiceRow) {
  return {
    id: invoice.id,
    month: invoice.month,
    test: invoice.test,
    totals,
    lines: lines.map(({ line, appName, amount }) => ({
      id: line.id,
      appId: line.appId,
      appName,
      subscriptionId: line.subscriptionId,
      kind: line.kind,
      description: line.description,
      periodStart: line.periodStart?.toISOString() ?? null,
      periodEnd: line.periodEnd?.toISOString() ?? null,
      amount,
      transactionId: line.transactionId,
      createdAt: line.createdAt.toISOString(),
    })),
  };
}

/** The merchant's Billing page: subscriptions (active and pending first), the 24 newest invoices with their lines. */
export async function merchantBilling(db: Db, businessId: string) {
  const subs = await db
    .select({ sub: appSubscriptions, appName: apps.name })
    .from(appSubscriptions)
    .innerJoin(apps, eq(apps.id, appSubscriptions.appId))
    .where(and(eq(appSubscriptions.businessId, businessId), inArray(appSubscriptions.status, ["ACTIVE", "PENDING"])))
    .orderBy(desc(appSubscriptions.createdAt));
  const { rows } = await listInvoices(db, businessId, { limit: 24, offset: 0 });
  return { subscriptions: subs, invoices: rows };
}
