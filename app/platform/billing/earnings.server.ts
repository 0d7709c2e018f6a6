/**
 * What billing shows: the developer's earnings per app and month (sums over the ledger), subscribers
 * by plan and churn; the merchant's subscriptions and invoices with their lines.
 */
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { appSubscriptions, apps, invoiceLines, invoices } from "../../../db/schema";
import { now } from "../core/clock.server";
import { earningsFromLedger, PLATFORM_FEE_BPS } from "./ledger.server";

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
      return { month, currency, gross: r?.gross ?? 0, fee: r?.fee ?? 0, net: r?.net ?? 0 };
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

/** The merchant's Billing page: subscriptions (active and pending first), invoices newest first with their lines. */
export async function merchantBilling(db: Db, businessId: string) {
  const subs = await db
    .select({ sub: appSubscriptions, appName: apps.name })
    .from(appSubscriptions)
    .innerJoin(apps, eq(apps.id, appSubscriptions.appId))
    .where(and(eq(appSubscriptions.businessId, businessId), inArray(appSubscriptions.status, ["ACTIVE", "PENDING"])))
    .orderBy(desc(appSubscriptions.createdAt));
  const invs = await db
    .select()
    .from(invoices)
    .where(eq(invoices.businessId, businessId))
    .orderBy(desc(invoices.month))
    .limit(24);
  const lines = invs.length
    ? await db
        .select({ line: invoiceLines, appName: apps.name })
        .from(invoiceLines)
        .innerJoin(apps, eq(apps.id, invoiceLines.appId))
        .where(
          and(
            eq(invoiceLines.businessId, businessId),
            inArray(
              invoiceLines.invoiceId,
              invs.map((i) => i.id),
            ),
          ),
        )
        .orderBy(asc(invoiceLines.createdAt), asc(invoiceLines.id))
    : [];
  return {
    subscriptions: subs,
    invoices: invs.map((inv) => {
      const own = lines.filter((l) => l.line.invoiceId === inv.id);
      const totals: Record<string, number> = {};
      for (const l of own) totals[l.line.currency] = (totals[l.line.currency] ?? 0) + l.line.amount;
      return { invoice: inv, lines: own, totals };
    }),
  };
}
