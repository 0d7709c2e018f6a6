/**
 * The one ledger of app billing (contract 13, decision 043). Every charge billed to a merchant is
 * one ledger transaction of three entries in the charge's currency, integer minor units, summing
 * to zero: the merchant owes the gross (`merchant:<businessId>`, +gross), the app's developer
 * earns the net (`developer:<appId>`, -net) and the platform keeps its fee (`platform:fees`, -fee).
 * A deferred trigger refuses any transaction that does not balance; the table is append-only.
 * Invoices, earnings and the platform's fee are sums over these entries, never totals kept apart.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { ledgerEntries, ledgerTransactions } from "../../../db/schema";
import { newId } from "../core/ids.server";

/** The platform's revenue share (decision 043): 15% of every charge, in basis points. */
export const PLATFORM_FEE_BPS = 1500;

/** The platform's fee of a gross amount: 15%, rounded down to the minor unit (the developer keeps the remainder). */
export function platformFee(gross: number): number {
  return Math.floor((gross * PLATFORM_FEE_BPS) / 10_000);
}

export const merchantAccount = (businessId: string) => `merchant:${businessId}`;
export const developerAccount = (appId: string) => `developer:${appId}`;
export const PLATFORM_FEES = "platform:fees";

/** The calendar month (UTC) of a moment: "2026-11". */
export const monthOf = (t: Date) => t.toISOString().slice(0, 7);

/**
 * Posts one charge: its transaction (unique `key`: a second post of the same charge writes nothing
 * and answers null) and its three balanced entries.
 */
export async function postCharge(
  tx: Db,
  charge: {
    key: string;
    kind: string;
    month: string;
    appId: string;
    businessId: string;
    gross: number;
    currency: string;
  },
): Promise<string | null> {
  if (!Number.isSafeInteger(charge.gross) || charge.gross <= 0) throw new Error(`bad gross ${charge.gross}`);
  const id = newId("ltx");
  const [posted] = await tx
    .insert(ledgerTransactions)
    .values({ id, key: charge.key, kind: charge.kind, month: charge.month })
    .onConflictDoNothing({ target: ledgerTransactions.key })
    .returning({ id: ledgerTransactions.id });
  if (!posted) return null;
  const fee = platformFee(charge.gross);
  const entry = (account: string, amount: number) => ({
    id: newId("len"),
    transactionId: id,
    account,
    amount,
    currency: charge.currency,
    appId: charge.appId,
    businessId: charge.businessId,
    month: charge.month,
  });
  await tx
    .insert(ledgerEntries)
    .values([
      entry(merchantAccount(charge.businessId), charge.gross),
      entry(developerAccount(charge.appId), -(charge.gross - fee)),
      entry(PLATFORM_FEES, -fee),
    ]);
  return id;
}

export type EarningRow = { appId: string; month: string; currency: string; gross: number; fee: number; net: number };

/** Gross, fee and net per app, month and currency, summed from the ledger (developer earnings). */
export async function earningsFromLedger(db: Db, appIds: string[], months?: { from: string; to: string }) {
  if (appIds.length === 0) return [];
  const rows = await db.execute<{
    app_id: string;
    month: string;
    currency: string;
    gross: string;
    fee: string;
    net: string;
  }>(sql`
    select app_id, month, currency,
      coalesce(sum(amount) filter (where account like 'merchant:%'), 0) as gross,
      coalesce(-sum(amount) filter (where account = ${PLATFORM_FEES}), 0) as fee,
      coalesce(-sum(amount) filter (where account like 'developer:%'), 0) as net
    from ledger_entries
    where app_id in (${sql.join(
      appIds.map((a) => sql`${a}`),
      sql`, `,
    )})
      ${months ? sql`and month between ${months.from} and ${months.to}` : sql``}
    group by app_id, month, currency
    order by month, app_id, currency`);
  return rows.map((r): EarningRow => ({
    appId: r.app_id,
    month: r.month,
    currency: r.currency,
    gross: Number(r.gross),
    fee: Number(r.fee),
    net: Number(r.net),
  }));
}
