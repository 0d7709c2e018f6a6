/**
 * Developer analytics per app (spec "Developer analytics"; contract 11). Figures come from indexed
 * queries on installations and from the daily rollup of delivery attempts (webhook_daily_stats),
 * never from scanning attempts. Test installs and their deliveries are left out, and so are
 * installations on developers' sandboxes (decision 054: a sandbox's install is no shop's). Days are UTC.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { now } from "../core/clock.server";

const DAY = 24 * 3600 * 1000;

/** The installations that count as installs: production ones on shops, not on a developer's sandbox. */
const counted = (appId: string) =>
  sql`app_id = ${appId} and not is_test_install and not exists (select 1 from businesses b where b.id = installations.business_id and b.is_sandbox)`;

/** The 30 UTC dates ending today, oldest first. */
export function last30Days(today = now()): string[] {
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Array.from({ length: 30 }, (_, i) => new Date(end - (29 - i) * DAY).toISOString().slice(0, 10));
}

export async function appAnalytics(db: Db, appId: string) {
  const days = last30Days();
  const since = `${days[0]}T00:00:00.000Z`;
  const [counts] = await db.execute<{ total: number; active: number }>(sql`
    select count(*)::int as total, count(*) filter (where status = 'ACTIVE')::int as active
    from installations where ${counted(appId)}`);
  const installs = await db.execute<{ day: string; n: number }>(sql`
    select to_char(installed_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as n
    from installations where ${counted(appId)} and installed_at >= ${since}::timestamptz group by 1`);
  const uninstalls = await db.execute<{ day: string; n: number }>(sql`
    select to_char(uninstalled_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as n
    from installations where ${counted(appId)} and uninstalled_at >= ${since}::timestamptz group by 1`);
  const stats = await db.execute<{
    day: string;
    succeeded: number;
    failed: number;
    answered: number;
    latency: string;
  }>(sql`
    select day, sum(succeeded)::int as succeeded, sum(failed)::int as failed, sum(answered)::int as answered, sum(latency_total_ms)::text as latency
    from webhook_daily_stats where app_id = ${appId} and day >= ${days[0]} and day <= ${days[29]} group by day`);
  const sum = (f: (r: (typeof stats)[number]) => number) => stats.reduce((s, r) => s + f(r), 0);
  const succeeded = sum((r) => r.succeeded);
  const attempts = succeeded + sum((r) => r.failed);
  const answered = sum((r) => r.answered);
  const latency = sum((r) => Number(r.latency));
  const round2 = (n: number) => Math.round(n * 100) / 100;
  return {
    totalInstalls: counts.total,
    activeInstalls: counts.active,
    webhookSuccessRate: attempts ? round2((succeeded / attempts) * 100) : null,
    avgWebhookLatencyMs: answered ? round2(latency / answered) : null,
    installTrend: days.map((date) => ({
      date,
      installs: installs.find((r) => r.day === date)?.n ?? 0,
      uninstalls: uninstalls.find((r) => r.day === date)?.n ?? 0,
    })),
    webhookDeliveries: days.map((date) => {
      const s = stats.find((r) => r.day === date);
      return { date, succeeded: s?.succeeded ?? 0, failed: s?.failed ?? 0 };
    }),
  };
}
