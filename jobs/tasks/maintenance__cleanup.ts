import { sql } from "drizzle-orm";
import type { JobHelpers } from "graphile-worker";
import type { WorkerDeps } from "../deps";
import { now } from "../../app/platform/core/clock.server";
import { notifyVersionDeadlines } from "../../app/platform/versions/health.server";
import { pruneOrderExports } from "../../app/platform/orders/exports.server";

/** Hourly: drops rate-limit windows, sign-in throttle rows (windows, delays, known addresses unseen for 90 days), idempotency keys and sessions that have expired (or were revoked a day ago), and orders' CSV exports older than 7 days. */
export async function maintenanceCleanup({ db }: WorkerDeps, _payload: unknown, helpers: JobHelpers) {
  const t = now().getTime();
  const hourAgo = new Date(t - 3600_000);
  const dayAgo = new Date(t - 24 * 3600_000);
  const r1 = await db.execute(
    sql`delete from rate_limit_windows where window_start < ${hourAgo.toISOString()}::timestamptz`,
  );
  const r2 = await db.execute(
    sql`delete from sign_in_attempts where window_start < ${hourAgo.toISOString()}::timestamptz`,
  );
  const r3 = await db.execute(
    sql`delete from idempotency_keys where created_at < ${dayAgo.toISOString()}::timestamptz`,
  );
  const r4 = await db.execute(
    sql`delete from sessions where expires_at < ${new Date(t).toISOString()}::timestamptz or revoked_at < ${dayAgo.toISOString()}::timestamptz`,
  );
  // a pair's delays are forgotten after a day without failures (the count would restart anyway); known addresses after 90 days unseen
  const r5 = await db.execute(
    sql`delete from sign_in_delays where last_failure_at < ${dayAgo.toISOString()}::timestamptz`,
  );
  const r6 = await db.execute(
    sql`delete from sign_in_known_addresses where last_seen_at < ${new Date(t - 90 * 24 * 3600_000).toISOString()}::timestamptz`,
  );
  // the orders' CSV exports a week after they were ready (their chunks go with them)
  const r7 = await pruneOrderExports(db, new Date(t));
  // the developers' notices of deprecated API versions and coming sunsets (issue 32; idempotent)
  const notices = await notifyVersionDeadlines(db, now());
  if (notices) helpers.logger.info(`wrote ${notices} API version notices`);
  helpers.logger.debug(`cleanup removed ${r1.count + r2.count + r3.count + r4.count + r5.count + r6.count + r7} rows`);
}
