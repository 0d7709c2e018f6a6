import { sql } from "drizzle-orm";
import type { Database } from "../../../db/client";

/**
 * Makes waiting jobs of a task due now: time is driven through the job table, not waited for. For
 * `webhook__deliver`, waiting retries too: the dispatcher claims them by their row's due time
 * (decision 024), and only manual redeliveries are jobs.
 */
export async function makeDue(db: Database, task: string) {
  if (task === "webhook__deliver")
    await db.execute(
      sql`update webhook_deliveries set next_attempt_at = now() where status = 'RETRYING' and in_flight_since is null and next_attempt_at > now()`,
    );
  await db.execute(sql`
    update graphile_worker._private_jobs j set run_at = now()
    from graphile_worker._private_tasks t
    where t.id = j.task_id and t.identifier = ${task} and j.locked_at is null and j.run_at > now()`);
}

export async function jobsOf(db: Database, task: string) {
  const rows = await db.execute<{ run_at: string; key: string | null }>(
    sql`select run_at, key from graphile_worker.jobs where task_identifier = ${task} order by run_at`,
  );
  return rows.map((r) => ({ runAt: new Date(r.run_at), key: r.key }));
}
