/**
 * A worker process killed with SIGKILL in the middle of closing periods (issue 33 point 4): after a
 * second worker finishes the job, every period is billed exactly once (its recurring line and its
 * usage line), nothing lost and nothing doubled, and the ledger balances.
 */
import { expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { startPlatform } from "../app/platform/testing/platform";
import { eventually } from "../app/platform/testing/receiver";
import { workerProcesses } from "../app/platform/testing/processes";
import { appBody } from "../app/platform/apps/apps.test-helpers";
import { appSubscriptions, businesses, installations, usageRecords } from "../db/schema";
import { addJob } from "../app/platform/core/jobs.server";
import { planIn, PricingInput } from "../app/platform/shapes/pricing";
import { closeDuePeriods } from "../app/platform/billing/closing.server";

const p = await startPlatform({ worker: false });
const startWorkerProcess = workerProcesses(p.dbUrl, p.env);
const N = 600;
const DAY = 86_400_000;

it("a kill -9 during period closing loses and doubles nothing", async () => {
  const dev = await p.register("DEVELOPER");
  const app = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody() });
  const [plan] = PricingInput.parse([
    {
      id: "metered",
      name: "Metered",
      kind: "RECURRING",
      price: { amount: 999, currency: "USD" },
      interval: "EVERY_30_DAYS",
      usageCap: { amount: 5000, currency: "USD" },
    },
  ]).map(planIn);
  // N businesses, each with the app installed and a subscription whose period ended yesterday (real time: the worker's clock)
  const t = Date.now();
  const start = new Date(t - 31 * DAY);
  const end = new Date(t - DAY);
  for (let chunk = 0; chunk < N; chunk += 500) {
    const ids = Array.from({ length: Math.min(500, N - chunk) }, (_, i) => chunk + i);
    await p.db
      .insert(businesses)
      .values(ids.map((i) => ({ id: `biz_crash${i}`, name: `Shop ${i}`, slug: `crash-${i}` })));
    await p.db.insert(installations).values(
      ids.map((i) => ({
        id: `inst_crash${i}`,
        appId: app.json.id,
        businessId: `biz_crash${i}`,
        scopes: ["read_orders"],
        webhookSecretEnc: "unused",
        installedAt: start,
      })),
    );
    await p.db.insert(appSubscriptions).values(
      ids.map((i) => ({
        id: `sub_crash${i}`,
        installationId: `inst_crash${i}`,
        appId: app.json.id,
        businessId: `biz_crash${i}`,
        kind: "RECURRING" as const,
        planId: plan.id,
        plan,
        status: "ACTIVE" as const,
        returnUrl: "https://loyalty.example/done",
        expiresAt: new Date(start.getTime() + 2 * DAY),
        activatedAt: start,
        currentPeriodStart: start,
        currentPeriodEnd: end,
        usageBalance: 10 + (i % 90),
        usageCap: 5000,
      })),
    );
    await p.db.insert(usageRecords).values(
      ids.map((i) => ({
        id: `use_crash${i}`,
        subscriptionId: `sub_crash${i}`,
        businessId: `biz_crash${i}`,
        description: "messages",
        amount: 10 + (i % 90),
        periodStart: start,
      })),
    );
  }
  const expectedUsage = Array.from({ length: N }, (_, i) => 10 + (i % 90)).reduce((a, b) => a + b, 0);
  const lineCount = async () =>
    Number((await p.db.execute<{ n: string }>(sql`select count(*) as n from invoice_lines`))[0].n);

  const first = startWorkerProcess();
  await addJob(p.db, "billing__close_periods", {});
  // kill it once it has closed some periods but not all
  await eventually(async () => expect(await lineCount()).toBeGreaterThan(20), 240_000);
  first.child.kill("SIGKILL");
  await new Promise((r) => first.child.on("exit", r));
  const atKill = await lineCount();
  expect(atKill).toBeLessThan(2 * N);
  // lines come in whole periods: a killed transaction left no half-closed period behind
  expect(atKill % 2).toBe(0);

  startWorkerProcess();
  await addJob(p.db, "billing__close_periods", {});
  await eventually(async () => expect(await lineCount()).toBe(2 * N), 400_000);
  // and a further run writes nothing more (the dead worker's job stays locked, as graphile-worker
  // keeps it for 4 hours; the crontab's run every minute and this one take over its work)
  expect((await closeDuePeriods(p.db)).periods).toBe(0);
  expect(await lineCount()).toBe(2 * N);

  const perSub = await p.db.execute<{ subscription_id: string; recurring: string; usage: string; n: string }>(sql`
    select subscription_id, sum(amount) filter (where kind = 'RECURRING') as recurring,
      sum(amount) filter (where kind = 'USAGE') as usage, count(*) as n
    from invoice_lines group by subscription_id`);
  expect(perSub).toHaveLength(N);
  for (const s of perSub) {
    expect(Number(s.n)).toBe(2);
    expect(Number(s.recurring)).toBe(999);
  }
  expect(perSub.reduce((a, s) => a + Number(s.usage), 0)).toBe(expectedUsage);
  const [advanced] = await p.db.execute<{ n: string }>(
    sql`select count(*) as n from app_subscriptions where current_period_start = ${end.toISOString()}::timestamptz and usage_balance = 0`,
  );
  expect(Number(advanced.n)).toBe(N);
  expect(
    await p.db.execute(
      sql`select transaction_id from ledger_entries group by transaction_id, currency having sum(amount) <> 0`,
    ),
  ).toEqual([]);
  const [{ total }] = await p.db.execute<{ total: string }>(
    sql`select sum(amount) as total from ledger_entries where account like 'merchant:%'`,
  );
  expect(Number(total)).toBe(999 * N + expectedUsage);
}, 900_000);
