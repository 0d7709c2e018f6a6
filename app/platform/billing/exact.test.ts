/**
 * Billing is exact (issue 39, decisions 050 and 051), through the real server on a real Postgres:
 * invoice lines are as append-only as the ledger and reference their transaction, and the totals
 * the merchant sees are sums of ledger entries; usage recorded after a period ended (the closing job
 * not yet run) belongs to the new period under the new cap; a plan change bills its day once; a
 * usage record retried without an Idempotency-Key is answered with the first record; the
 * developer's Earnings answer money as `{amount, currency}`.
 * No worker: the closing job runs only when a test says so (the clock is moved by the tests).
 */
import { afterEach, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { BrowserSession } from "../testing/browser";
import { appBody, METERED_PLAN } from "../apps/apps.test-helpers";
import { installThroughOAuth } from "../testing/install";
import { setClockOffset } from "../core/clock.server";
import { closeDuePeriods, DAY_MS } from "./closing.server";
import { platformFee } from "./ledger.server";
import { USAGE_RETRY_WINDOW_MS } from "./subscriptions.server";

const p = await startPlatform({ worker: false, env: { APP_API_RATE_LIMIT: "100000" } });
const PASSWORD = "correct horse battery";
const reviewer = await p.createUser("REVIEWER");
const dev = await p.register("DEVELOPER");

const usd = (amount: number) => ({ amount, currency: "USD" });
const PRICING = [
  { id: "basic", name: "Basic", kind: "RECURRING", price: usd(3000), interval: "EVERY_30_DAYS" },
  { id: "plus", name: "Plus", kind: "RECURRING", price: usd(6000), interval: "EVERY_30_DAYS" },
  METERED_PLAN,
];

// the tests move the clock forward; each starts again at real time
let offset = 0;
const advance = (ms: number) => setClockOffset((offset += ms));
afterEach(() => setClockOffset((offset = 0)));

async function merchantWithApp() {
  const merchant = await p.register("MERCHANT");
  const browser = await BrowserSession.signIn(p.url, merchant.email, PASSWORD);
  const { app, token } = await installThroughOAuth(
    p,
    { developer: dev, reviewer, merchant: browser },
    appBody({ pricing: PRICING }),
  );
  return { merchant, app, token };
}

/** A merchant's JWT lasts 24 h: after the clock moves, sign in again. */
const freshToken = async (who: { email: string }) =>
  (await p.request("POST", "/auth/login", { body: { email: who.email, password: PASSWORD } })).json.token as string;

async function subscribed(token: string, merchant: { email: string }, planId: string) {
  const sub = await p.request("POST", "/app-api/billing/subscriptions", {
    token,
    body: { planId, returnUrl: "https://loyalty.example/billing/done" },
  });
  expect(sub.status, sub.text).toBe(201);
  const ok = await p.request("POST", `/merchant/billing/subscriptions/${sub.json.id}/approve`, {
    token: await freshToken(merchant),
  });
  expect(ok.status, ok.text).toBe(200);
  return ok.json;
}

const useUsage = (token: string, id: string, description: string, amount: number, key?: string) =>
  p.request("POST", `/app-api/billing/subscriptions/${id}/usage`, {
    token,
    headers: key ? { "Idempotency-Key": key } : {},
    body: { description, amount: usd(amount) },
  });

const linesOf = async (subscriptionId: string) =>
  (
    await p.db.execute<{ kind: string; amount: string; description: string; period_start: Date }>(
      sql`select kind, amount, description, period_start from invoice_lines where subscription_id = ${subscriptionId}
          order by period_start, kind`,
    )
  ).map((l) => [l.kind, Number(l.amount), l.description]);

describe("invoice lines are the ledger's", () => {
  it("the database refuses to change or remove an invoice line, and each line references its ledger transaction", async () => {
    const { token, merchant } = await merchantWithApp();
    const charge = await p.request("POST", "/app-api/billing/charges", {
      token,
      body: { name: "Setup", price: usd(2500), returnUrl: "https://loyalty.example/x" },
    });
    await p.request("POST", `/merchant/billing/subscriptions/${charge.json.id}/approve`, { token: merchant.token });
    const [line] = await p.db.execute<{ id: string; transaction_id: string }>(
      sql`select id, transaction_id from invoice_lines where subscription_id = ${charge.json.id}`,
    );
    await expect(p.sql`update invoice_lines set amount = 1 where id = ${line.id}`).rejects.toThrow(
      /invoice lines are never changed or removed/,
    );
    await expect(p.sql`delete from invoice_lines where id = ${line.id}`).rejects.toThrow(
      /invoice lines are never changed or removed/,
    );
    const [kept] = await p.db.execute<{ amount: string }>(sql`select amount from invoice_lines where id = ${line.id}`);
    expect(Number(kept.amount)).toBe(2500);
    // the line's transaction is a real ledger transaction: a line naming no transaction is refused
    const [tx] = await p.db.execute<{ n: string }>(
      sql`select count(*) as n from ledger_transactions where id = ${line.transaction_id}`,
    );
    expect(Number(tx.n)).toBe(1);
    await expect(
      p.sql`insert into invoice_lines (id, invoice_id, key, business_id, app_id, subscription_id, kind,
          description, amount, currency, transaction_id)
        select 'inl_forged', invoice_id, 'forged', business_id, app_id, subscription_id, kind, description, 1, currency,
          'ltx_nothing' from invoice_lines where id = ${line.id}`,
    ).rejects.toThrow(/foreign key/);
    // one line per transaction
    await expect(
      p.sql`insert into invoice_lines (id, invoice_id, key, business_id, app_id, subscription_id, kind,
          description, amount, currency, transaction_id)
        select 'inl_twice', invoice_id, 'twice', business_id, app_id, subscription_id, kind, description, amount,
          currency, transaction_id from invoice_lines where id = ${line.id}`,
    ).rejects.toThrow(/invoice_lines_transaction_key/);
  });

  it("the merchant's invoice totals (JSON and the Billing page) are sums of ledger entries, not of lines", async () => {
    const { token, merchant } = await merchantWithApp();
    for (const price of [2500, 1999]) {
      const charge = await p.request("POST", "/app-api/billing/charges", {
        token,
        body: { name: `Setup ${price}`, price: usd(price), returnUrl: "https://loyalty.example/x" },
      });
      await p.request("POST", `/merchant/billing/subscriptions/${charge.json.id}/approve`, { token: merchant.token });
    }
    // a line changed behind the trigger's back (its owner disables it): what the merchant sees stays the ledger's
    await p.db.transaction(async (tx) => {
      await tx.execute(sql`alter table invoice_lines disable trigger invoice_lines_append_only`);
      await tx.execute(
        sql`update invoice_lines set amount = 1 where business_id = ${merchant.businessId} and amount = 1999`,
      );
      await tx.execute(sql`alter table invoice_lines enable trigger invoice_lines_append_only`);
    });
    const month = new Date().toISOString().slice(0, 7);
    const listed = await p.request("GET", "/merchant/billing/invoices", { token: merchant.token });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json.total).toBe(1);
    const [invoice] = listed.json.data;
    expect(invoice).toMatchObject({ month, totals: [usd(4499)] });
    expect(invoice.lines.map((l: { amount: unknown }) => l.amount)).toEqual([usd(2500), usd(1999)]);
    expect(invoice.lines[0].transactionId).toMatch(/^ltx_/);
    const browser = await BrowserSession.signIn(p.url, merchant.email, PASSWORD);
    const page = await browser.get("/admin/billing");
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/data-testid="invoice-total"[^>]*>\$44\.99</);
    expect(page.html).toContain('data-minor="1999"');
    // another business sees none of it
    const other = await p.register("MERCHANT");
    const theirs = await p.request("GET", "/merchant/billing/invoices", { token: other.token });
    expect(theirs.json).toMatchObject({ data: [], total: 0 });
  });
});

describe("periods are exact", () => {
  it("usage recorded after a period's end, before the closing job ran, goes to the new period under the new cap", async () => {
    const { token, merchant } = await merchantWithApp();
    const sub = await subscribed(token, merchant, "metered");
    expect((await useUsage(token, sub.id, "first period", 60)).status).toBe(201);
    advance(30 * DAY_MS + 60_000); // the period ended a minute ago; no job has run
    const late = await useUsage(token, sub.id, "second period", 50);
    expect(late.status, late.text).toBe(201);
    expect(late.json.usageBalance).toEqual(usd(50));
    const got = await p.request("GET", `/app-api/billing/subscriptions/${sub.id}`, { token });
    expect(new Date(got.json.currentPeriodEnd).getTime()).toBe(new Date(sub.currentPeriodEnd).getTime() + 30 * DAY_MS);
    // the first period was closed by the record, under the row's lock; the job finds nothing due
    expect(await linesOf(sub.id)).toEqual([
      ["RECURRING", 999, "Metered"],
      ["USAGE", 60, "Metered: usage"],
    ]);
    expect((await closeDuePeriods(p.db)).periods).toBe(0);
    // room is the new period's: 50 more fit, one more does not
    expect((await useUsage(token, sub.id, "fills the cap", 50)).status).toBe(201);
    const over = await useUsage(token, sub.id, "over", 1);
    expect(over.status).toBe(409);
    expect(over.json.message).toContain("cap of 100 with a balance of 100");
    advance(30 * DAY_MS);
    expect((await closeDuePeriods(p.db)).periods).toBe(1);
    expect(await linesOf(sub.id)).toEqual([
      ["RECURRING", 999, "Metered"],
      ["USAGE", 60, "Metered: usage"],
      ["RECURRING", 999, "Metered"],
      ["USAGE", 100, "Metered: usage"],
    ]);
    const [{ wrong }] = await p.db.execute<{ wrong: string }>(sql`
      select count(*) as wrong from usage_records u join app_subscriptions s on s.id = u.subscription_id
      where s.id = ${sub.id} and u.created_at >= u.period_start + interval '30 days'`);
    expect(Number(wrong)).toBe(0);
  });

  it("a plan change bills the day of the change once: the old plan its whole days, the new one from the change", async () => {
    const { token, merchant } = await merchantWithApp();
    const basic = await subscribed(token, merchant, "basic");
    advance(10 * DAY_MS + 3600_000); // 10 days and an hour into Basic's period
    const plus = await subscribed(token, merchant, "plus");
    advance(20 * DAY_MS - 3600_000); // 30 days after Basic began: Plus has run 19 days and 23 hours
    const cancelled = await p.request("POST", `/merchant/billing/subscriptions/${plus.id}/cancel`, {
      token: await freshToken(merchant),
    });
    expect(cancelled.status).toBe(200);
    // 30 days of service, 30 days billed: Basic 3000 x 10 / 30, Plus 6000 x 20 / 30
    expect(await linesOf(basic.id)).toEqual([["RECURRING", 1000, "Basic (10 of 30 days)"]]);
    expect(await linesOf(plus.id)).toEqual([["RECURRING", 4000, "Plus (20 of 30 days)"]]);
    const listed = await p.request("GET", "/merchant/billing/invoices", { token: await freshToken(merchant) });
    const totals = listed.json.data.flatMap((i: { totals: { amount: number }[] }) => i.totals.map((t) => t.amount));
    expect(totals.reduce((a: number, b: number) => a + b, 0)).toBe(5000);
  });
});

describe("a usage record retried without an Idempotency-Key", () => {
  it("is answered with the first record within the window, and charges nothing more", async () => {
    const { token, merchant } = await merchantWithApp();
    const sub = await subscribed(token, merchant, "metered");
    const first = await useUsage(token, sub.id, "SMS to +1 555 0100", 20);
    expect(first.status).toBe(201);
    // the app did not see the answer (the connection closed) and sends the same record again
    const retried = await useUsage(token, sub.id, "SMS to +1 555 0100", 20);
    expect(retried.status).toBe(201);
    expect(retried.json).toEqual(first.json);
    // and five at once: one record
    const burst = await Promise.all(Array.from({ length: 5 }, () => useUsage(token, sub.id, "burst", 5)));
    expect(burst.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(burst.map((a) => a.json.id)).size).toBe(1);
    const got = await p.request("GET", `/app-api/billing/subscriptions/${sub.id}`, { token });
    expect(got.json.usageBalance).toEqual(usd(25));
    // a different description or amount is another charge
    expect((await useUsage(token, sub.id, "SMS to +1 555 0101", 20)).json.id).not.toBe(first.json.id);
    expect((await useUsage(token, sub.id, "SMS to +1 555 0100", 21)).json.usageBalance).toEqual(usd(66));
    // identical charges are told apart by their Idempotency-Keys
    const a = await useUsage(token, sub.id, "ping", 1, "ping-1");
    const b = await useUsage(token, sub.id, "ping", 1, "ping-2");
    expect(a.json.id).not.toBe(b.json.id);
    // after the window the same body is a new charge
    advance(USAGE_RETRY_WINDOW_MS + 1000);
    const later = await useUsage(token, sub.id, "SMS to +1 555 0100", 20);
    expect(later.status).toBe(201);
    expect(later.json.id).not.toBe(first.json.id);
    expect(later.json.usageBalance).toEqual(usd(88));
    const [{ n }] = await p.db.execute<{ n: string }>(
      sql`select count(*) as n from usage_records where subscription_id = ${sub.id}`,
    );
    expect(Number(n)).toBe(7);
  });
});

describe("the developer's Earnings", () => {
  it("answers money as {amount, currency} in minor units", async () => {
    const { token, merchant, app } = await merchantWithApp();
    const charge = await p.request("POST", "/app-api/billing/charges", {
      token,
      body: { name: "Setup", price: usd(2999), returnUrl: "https://loyalty.example/x" },
    });
    await p.request("POST", `/merchant/billing/subscriptions/${charge.json.id}/approve`, { token: merchant.token });
    const earnings = await p.request("GET", `/developer/apps/${app.id}/earnings`, { token: dev.token });
    expect(earnings.status, earnings.text).toBe(200);
    expect(earnings.json.months).toHaveLength(12);
    const fee = platformFee(2999); // 449.85 -> 449: rounded down per line
    expect(fee).toBe(449);
    expect(earnings.json.months.at(-1)).toEqual({
      month: new Date().toISOString().slice(0, 7),
      currency: "USD",
      gross: usd(2999),
      fee: usd(449),
      net: usd(2550),
    });
    expect(earnings.json.months[0].gross).toEqual(usd(0));
    const browser = await BrowserSession.signIn(p.url, dev.email, PASSWORD);
    const page = await browser.get(`/portal/apps/${app.id}/earnings`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('data-gross="2999"');
    expect(page.html).toContain('data-net="2550"');
    expect(page.html).toContain("$25.50");
    const csv = await browser.get(`/portal/apps/${app.id}/earnings.csv`);
    expect(csv.html).toContain(`${new Date().toISOString().slice(0, 7)},USD,2999,449,2550,29.99,4.49,25.50`);
  });
});
