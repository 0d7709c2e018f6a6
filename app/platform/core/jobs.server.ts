/** graphile-worker jobs added through the caller's connection, so inside the caller's transaction. */
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client";

/** Adds a graphile-worker job through the same connection (and so the same transaction). */
export async function addJob(
  db: Db,
  task: string,
  payload: Record<string, unknown>,
  options: { runAt?: Date; jobKey?: string; maxAttempts?: number } = {},
) {
  await db.execute(sql`select graphile_worker.add_job(
    ${task}, ${JSON.stringify(payload)}::json,
    run_at => ${options.runAt ? options.runAt.toISOString() : null}::timestamptz,
    job_key => ${options.jobKey ?? null}::text,
    max_attempts => ${options.maxAttempts ?? 25}::int)`);
}

export async function removeJob(db: Db, jobKey: string) {
  await db.execute(sql`select graphile_worker.remove_job(${jobKey})`);
}
