/** The sweeper: attempts and fan-outs a worker that died left behind. */
import { and, inArray, sql } from "drizzle-orm";
import type { Database } from "../../../db/client";
import { webhookDeliveries } from "../../../db/schema";
import { now } from "../core/clock.server";
import { addJob } from "../core/jobs.server";
import { DELIVERIES_CHANNEL } from "./fanout.server";
import { staleInFlightMs } from "./delivery-rules.server";

/** A job whose work has not happened this long after it was due was lost (its worker died holding it); WORKER_STRANDED_AFTER_MS's default. */
export const STRANDED_AFTER_MS = 60_000;

/**
 * Run every few seconds by every worker: (1) clears attempts left in flight by a worker that died, so
 * that the dispatcher claims them again (first attempts and retries are claimed from the table, under
 * their registration's cap: decision 024), and (2) re-queues events whose fan-out job was lost. The
 * work is idempotent (atomic claims, unique deliveries), so a job that was only slow, not lost, costs
 * nothing but a skipped run. Job keys keep the sweeper from piling up copies. A delivery whose due
 * time passed long ago needs nothing: it waits for its endpoint's slots, not for a job.
 */
export async function sweepAbandoned(db: Database, strandedAfterMs = STRANDED_AFTER_MS): Promise<number> {
  const t = now().getTime();
  const staleBefore = new Date(t - staleInFlightMs(strandedAfterMs)).toISOString();
  const strandedBefore = new Date(t - strandedAfterMs).toISOString();
  return db.transaction(async (tx) => {
    const stale = await tx
      .update(webhookDeliveries)
      .set({ inFlightSince: null })
      .where(
        and(
          inArray(webhookDeliveries.status, ["PENDING", "RETRYING"]),
          sql`${webhookDeliveries.inFlightSince} < ${staleBefore}::timestamptz`,
        ),
      )
      .returning({ id: webhookDeliveries.id });
    const unfanned = await tx.execute<{ id: string }>(sql`
      select id from platform_events where fanned_out_at is null and created_at < ${strandedBefore}::timestamptz order by created_at limit 500`);
    for (const e of unfanned) await addJob(tx, "event__fanout", { eventId: e.id }, { jobKey: `refan:${e.id}` });
    if (stale.length) await tx.execute(sql`select pg_notify(${DELIVERIES_CHANNEL}, '')`);
    return stale.length + unfanned.length;
  });
}
