/**
 * Reconciliation (issue 33 point 5): thousands of random subscriptions, approvals, declines,
 * replacements, usage records (some over the cap, some retried with their key), cancellations by
 * the app and the merchant, uninstalls and period closings, with the clock moving days at a time,
 * on a real Postgres. Afterwards no minor unit is out of place: every ledger transaction balances,
 * every invoice line is its transaction's gross, fee + net = gross, every usage record is billed
 * exactly once, every recurring charge is what an independent model of the periods computes, and
 * each business's invoices sum to what the ledger says it owes.
 */
import { expect, it } from "vitest";
import fc from "fast-check";
import { and, eq, sql } from "drizzle-orm";
import { testDatabase } from "../../../db/testing/database";
import { appSubscriptions, apps, installations, type App, type Installation, type Business } from "../../../db/schema";
import { testEnv } from "../testing/platform";
import { createAccount } from "../accounts/accounts.server";
import { createApp } from "../apps/apps.server";
import { appBody } from "../apps/apps.test-helpers";
import { createInstallation, uninstall } from "../installs/installs.server";
import { advanceClock } from "../core/clock.server";
import { ApiError } from "../core/http.server";
import { planIn, PricingInput } from "../shapes/pricing";
import {
  approveSubscription,
  cancelSubscription,
  createCharge,
  createSubscription,
  declineSubscription,
  recordUsage,
  type BillingCaller,
} from "./subscriptions.server";
import { closeDuePeriods, DAY_MS } from "./closing.server";
import { platformFee } from "./ledger.server";

const { db } = await testDatabase();
const env = testEnv();

const PLANS = PricingInput.parse([
  { id: "basic", name: "Basic", kind: "RECURRING", price: { amount: 999, currency: "USD" }, interval: "EVERY_30_DAYS" },
  {
    id: "trial",
    name: "Trial",
    kind: "RECURRING",
    price: { amount: 3001, currency: "USD" },
    interval: "EVERY_30_DAYS",
    trialDays: 7,
  },
  {
    id: "metered",
    name: "Metered",
    kind: "RECURRING",
    price: { amount: 500, currency: "USD" },
    interval: "EVERY_30_DAYS",
    usageCap: { amount: 1000, currency: "USD" },
  },
  { id: "usage", name: "Usage", kind: "USAGE", usageCap: { amount: 777, currency: "JPY" } },
  { id: "yearly", name: "Yearly", kind: "RECURRING", price: { amount: 12345, currency: "KWD" }, interval: "ANNUAL" },
]).map(planIn);

const developer = await createAccount(db, {
  email: "recon-dev@example.test",
  password: "correct horse battery",
  name: "Dev",
  role: "DEVELOPER",
});
const appRows: App[] = [];
for (let i = 0; i < 2; i++) {
  const { app } = await createApp(
    db,
    env,
    developer.account.id,
    appBody({ redirectUrl: "https://app.example/cb" }) as never,
  );
  const [approved] = await db
    .update(apps)
    .set({ status: "APPROVED", approvedPricing: PLANS, pricing: PLANS })
    .where(eq(apps.id, app.id))
    .returning();
  appRows.push(approved);
}
const businesses: Business[] = [];
for (let i = 0; i < 3; i++) {
  const m = await createAccount(db, {
    email: `recon-m${i}@example.test`,
    password: "correct horse battery",
    name: "M",
    role: "MERCHANT",
    businessName: `Shop ${i}`,
  });
  businesses.push(m.business!);
}

/** The active installation of app a on business b (reinstalled after an uninstall). */
async function installationOf(a: number, b: number): Promise<Installation> {
  const [found] = await db
    .select()
    .from(installations)
    .where(
      and(
        eq(installations.appId, appRows[a].id),
        eq(installations.businessId, businesses[b].id),
        eq(installations.status, "ACTIVE"),
      ),
    );
  if (found) return found;
  return db.transaction(
    async (tx) =>
      (
        await createInstallation(tx, env, {
          app: appRows[a],
          businessId: businesses[b].id,
          scopes: ["read_orders"],
          isTestInstall: false,
          installedBy: developer.account.id,
        })
      ).installation,
  );
}
const callerOf = async (a: number, b: number): Promise<BillingCaller> => ({
  installation: await installationOf(a, b),
  business: businesses[b],
  app: { id: appRows[a].id },
});

const created: string[] = [];
const approved: string[] = [];
let commandsRun = 0;
const command = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant("subscribe" as const), a: fc.nat(1), b: fc.nat(2), plan: fc.nat(4) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("charge" as const),
      a: fc.nat(1),
      b: fc.nat(2),
      price: fc.integer({ min: 1, max: 99999 }),
    }),
  },
  { weight: 4, arbitrary: fc.record({ op: fc.constant("approve" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("decline" as const), pick: fc.nat() }) },
  {
    weight: 8,
    arbitrary: fc.record({
      op: fc.constant("usage" as const),
      pick: fc.nat(),
      amount: fc.integer({ min: 1, max: 400 }),
      key: fc.option(fc.constantFrom("k1", "k2", "k3"), { nil: null }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("cancel" as const), pick: fc.nat(), byApp: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("uninstall" as const), a: fc.nat(1), b: fc.nat(2) }) },
  {
    weight: 3,
    arbitrary: fc.record({ op: fc.constant("advance" as const), hours: fc.integer({ min: 1, max: 24 * 12 }) }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("close" as const) }) },
);

/** Runs one command; refusals the platform answers with an ApiError (409 over the cap, 409 not PENDING) are part of the game. */
async function run(c: any) {
  // mostly the latest requests: a merchant answers soon, an app records usage on what is active
  const pick = <T>(list: T[], n: number) =>
    list.length ? list[list.length - 1 - (n % Math.min(list.length, 8))] : undefined;
  try {
    switch (c.op) {
      case "subscribe": {
        const sub = await createSubscription(db, await callerOf(c.a, c.b), {
          planId: PLANS[c.plan].id,
          returnUrl: "https://app.example/done",
        });
        created.push(sub.id);
        break;
      }
      case "charge": {
        const sub = await createCharge(db, await callerOf(c.a, c.b), {
          name: "Extra",
          price: { amount: c.price, currency: "USD" },
          returnUrl: "https://app.example/done",
        });
        created.push(sub.id);
        break;
      }
      case "approve":
      case "decline": {
        const id = pick(created, c.pick);
        if (!id) break;
        const [s] = await db.select().from(appSubscriptions).where(eq(appSubscriptions.id, id));
        if (c.op === "approve") approved.push((await approveSubscription(db, s.businessId, id)).id);
        else await declineSubscription(db, s.businessId, id);
        break;
      }
      case "usage": {
        const id = pick(approved, c.pick);
        if (!id) break;
        const [s] = await db.select().from(appSubscriptions).where(eq(appSubscriptions.id, id));
        const [inst] = await db.select().from(installations).where(eq(installations.id, s.installationId));
        const business = businesses.find((b) => b.id === s.businessId)!;
        await recordUsage(
          db,
          { installation: inst, business, app: { id: s.appId } },
          id,
          { description: "use", amount: { amount: c.amount, currency: s.plan.currency } },
          c.key ? `${c.key}:${c.amount}` : null,
        );
        break;
      }
      case "cancel": {
        const id = pick(created, c.pick);
        if (!id) break;
        const [s] = await db.select().from(appSubscriptions).where(eq(appSubscriptions.id, id));
        await cancelSubscription(
          db,
          c.byApp ? { installationId: s.installationId } : { businessId: s.businessId },
          id,
          c.byApp ? "APP" : "MERCHANT",
        );
        break;
      }
      case "uninstall": {
        const inst = await installationOf(c.a, c.b);
        await db.transaction((tx) => uninstall(tx, inst));
        break;
      }
      case "advance":
        advanceClock(c.hours * 3600_000);
        break;
      case "close":
        await closeDuePeriods(db);
        break;
    }
  } catch (e) {
    if (!(e instanceof ApiError) || e.status >= 500) throw e;
  }
}

/** What the recurring charges of a subscription must come to, from its life alone (an independent model of the periods). */
function expectedRecurring(s: typeof appSubscriptions.$inferSelect): number {
  if (s.kind !== "RECURRING" || !s.plan.price || s.test || !s.activatedAt) return 0;
  const days = s.plan.interval === "ANNUAL" ? 365 : 30;
  const end = s.closedAt ? s.endedAt! : s.currentPeriodStart!; // open subscriptions: closed periods only
  let total = 0;
  for (let start = s.activatedAt.getTime(); start < end.getTime(); start += days * DAY_MS) {
    const stop = Math.min(start + days * DAY_MS, end.getTime());
    const from = Math.max(start, s.trialEndsAt?.getTime() ?? 0);
    if (stop <= from) continue;
    // a day begun is a day billed, but a replaced plan leaves the change day to the new one (decision 050)
    const replaced = s.endedBy === "REPLACED" && stop === end.getTime();
    const billed = Math.min(days, (replaced ? Math.floor : Math.ceil)((stop - from) / DAY_MS));
    total += billed === days ? s.plan.price : Math.round((s.plan.price * billed) / days);
  }
  return total;
}

it("after thousands of random operations, no minor unit is out of place", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(command, { minLength: 60, maxLength: 120 }), async (commands) => {
      for (const c of commands) await run(c);
      commandsRun += commands.length;
    }),
    { numRuns: 25, seed: 33 },
  );
  // end everything: every open period is billed
  for (const s of await db.select().from(appSubscriptions).where(eq(appSubscriptions.status, "ACTIVE")))
    if (s.kind === "RECURRING") await cancelSubscription(db, { businessId: s.businessId }, s.id, "MERCHANT");
  expect(commandsRun).toBeGreaterThan(2000);
  expect(created.length).toBeGreaterThan(300);

  // 1. every transaction balances per currency
  expect(
    await db.execute(
      sql`select transaction_id from ledger_entries group by transaction_id, currency having sum(amount) <> 0`,
    ),
  ).toEqual([]);
  // 2. every line is its transaction's gross; fee is 15% rounded down; three entries each
  const lines = await db.execute<{ amount: string; gross: string; fee: string; net: string; n: string }>(sql`
    select l.amount,
      sum(e.amount) filter (where e.account like 'merchant:%') as gross,
      -sum(e.amount) filter (where e.account = 'platform:fees') as fee,
      -sum(e.amount) filter (where e.account like 'developer:%') as net,
      count(e.id) as n
    from invoice_lines l join ledger_entries e on e.transaction_id = l.transaction_id
    group by l.id, l.amount`);
  expect(lines.length).toBeGreaterThan(50);
  for (const l of lines) {
    expect(Number(l.gross)).toBe(Number(l.amount));
    expect(Number(l.fee)).toBe(platformFee(Number(l.amount)));
    expect(Number(l.fee) + Number(l.net)).toBe(Number(l.amount));
    expect(Number(l.n)).toBe(3);
  }
  // no ledger transaction without its line
  const [{ orphans }] = await db.execute<{ orphans: string }>(
    sql`select count(*) as orphans from ledger_transactions t where not exists (select 1 from invoice_lines l where l.transaction_id = t.id)`,
  );
  expect(Number(orphans)).toBe(0);

  const subs = await db.select().from(appSubscriptions);
  const billed = await db.execute<{ subscription_id: string; kind: string; total: string }>(
    sql`select subscription_id, kind, sum(amount) as total from invoice_lines group by subscription_id, kind`,
  );
  const billedOf = (id: string, kind: string) =>
    Number(billed.find((r) => r.subscription_id === id && r.kind === kind)?.total ?? 0);
  const usage = await db.execute<{ subscription_id: string; total: string }>(
    sql`select subscription_id, sum(amount) as total from usage_records group by subscription_id`,
  );
  for (const s of subs) {
    // 3. every usage record billed exactly once; never past the cap in any period
    const used = Number(usage.find((u) => u.subscription_id === s.id)?.total ?? 0);
    expect(billedOf(s.id, "USAGE"), `usage of ${s.id}`).toBe(s.test ? 0 : used);
    // 4. recurring charges as the model computes them
    expect(billedOf(s.id, "RECURRING"), `recurring of ${s.id}`).toBe(expectedRecurring(s));
    // 5. one-time charges once, when approved
    expect(billedOf(s.id, "ONE_TIME")).toBe(s.kind === "ONE_TIME" && s.activatedAt ? s.plan.price : 0);
  }
  const overCap = await db.execute(sql`
    select u.subscription_id, u.period_start from usage_records u join app_subscriptions s on s.id = u.subscription_id
    group by u.subscription_id, u.period_start, s.usage_cap having sum(u.amount) > max(s.usage_cap)`);
  expect(overCap).toEqual([]);
  // every usage record is in the period running when it was recorded, never a period already over (decision 050)
  const late = await db.execute(sql`
    select u.id from usage_records u join app_subscriptions s on s.id = u.subscription_id
    where u.created_at >= u.period_start + make_interval(days => case when s.plan->>'interval' = 'ANNUAL' then 365 else 30 end)`);
  expect(late).toEqual([]);
  // 6. each business's invoices sum to what the ledger says it owes, per currency; one invoice per month
  const owed = await db.execute<{ business_id: string; currency: string; invoiced: string; ledger: string }>(sql`
    select l.business_id, l.currency, sum(l.amount) as invoiced,
      (select sum(e.amount) from ledger_entries e where e.account = 'merchant:' || l.business_id and e.currency = l.currency) as ledger
    from invoice_lines l group by l.business_id, l.currency`);
  for (const o of owed) expect(Number(o.invoiced)).toBe(Number(o.ledger));
  const months = await db.execute<{ wrong: string }>(sql`
    select count(*) as wrong from invoice_lines l join invoices i on i.id = l.invoice_id
    join ledger_transactions t on t.id = l.transaction_id where i.month <> t.month or i.business_id <> l.business_id`);
  expect(Number(months[0].wrong)).toBe(0);
}, 600_000);
