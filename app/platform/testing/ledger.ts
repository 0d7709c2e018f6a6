/**
 * The delivery ledger used by every fault test: every committed event is accounted for —
 * delivered (received by the endpoint, by delivery id), FAILED, or still pending — and nothing is
 * lost. Duplicates (a delivery received twice) are counted, not hidden.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../../db/client";

export type Ledger = {
  events: number;
  deliveries: number;
  received: number;
  failed: number;
  pending: number;
  lost: number;
  duplicates: number;
};

export async function ledger(db: Database, eventIds: string[], receivedDeliveryIds: string[]): Promise<Ledger> {
  const rows = await db.execute<{ event_id: string; id: string; status: string }>(sql`
    select e.id as event_id, d.id, coalesce(d.status, 'UNFANNED') as status
    from platform_events e left join webhook_deliveries d on d.event_id = e.id
    where e.id in ${
      eventIds.length
        ? sql`(${sql.join(
            eventIds.map((i) => sql`${i}`),
            sql`, `,
          )})`
        : sql`('')`
    }`);
  const seen = new Map<string, number>();
  for (const id of receivedDeliveryIds) seen.set(id, (seen.get(id) ?? 0) + 1);
  let received = 0;
  let failed = 0;
  let pending = 0;
  let lost = 0;
  for (const r of rows) {
    if (r.id && seen.has(r.id)) received++;
    else if (r.status === "FAILED") failed++;
    else if (r.status === "PENDING" || r.status === "RETRYING" || r.status === "UNFANNED") pending++;
    else lost++; // SUCCEEDED in the table but never received: would be a lie
  }
  const duplicates = [...seen.values()].reduce((s, n) => s + (n - 1), 0);
  return {
    events: eventIds.length,
    deliveries: rows.filter((r) => r.id).length,
    received,
    failed,
    pending,
    lost,
    duplicates,
  };
}
