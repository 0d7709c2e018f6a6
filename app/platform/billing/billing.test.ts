/**
 * App billing through the real server (contract 13): pricing in the listing and its review, the App
 * API's subscriptions, charges and usage, the merchant's approval, the cap under concurrency, the
 * app_subscription.updated webhook to a real receiver, period closing into invoices and the ledger,
 * uninstall, trials across reinstalls, and bad input refused with nothing written.
 */
import { REVIEW_CRITERIA_KEYS } from "../shapes/app-catalog";
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { BrowserSession, hiddenFields } from "../testing/browser";
import { eventually, startReceiver } from "../testing/receiver";
import { atOnce, expectOutcome } from "../testing/concurrency";
import { appBody, METERED_PLAN } from "../apps/apps.test-helpers";
import { installThroughOAuth } from "../testing/install";
import { advanceClock } from "../core/clock.server";
import { closeDuePeriods } from "./closing.server";
import { DAY_MS } from "./closing.server";

const p = await startPlatform({ worker: true, env: { APP_API_RATE_LIMIT: "100000" } });
const PASSWORD = "correct horse battery";
const receiver = await startReceiver();
const reviewer = await p.createUser("REVIEWER");
const dev = await p.register("DEVELOPER");

const usd = (amount: number) => ({ amount, currency: "USD" });
const PRICING = [
  { id: "free", name: "Free", kind: "FREE" },
  { id: "pro", name: "Pro", kind: "RECURRING", price: usd(3000), interval: "EVERY_30_DAYS", trialDays: 14 },
  METERED_PLAN,
  { id: "lifetime", name: "Lifetime", kind: "ONE_TIME", price: usd(4900) },
];

async function merchantWithApp(pricing: unknown[] = PRICING) {
  const merchant = await p.register("MERCHANT");
  const browser = await BrowserSession.signIn(p.url, merchant.email, PASSWORD);
  const { app, token } = await installThroughOAuth(
    p,
    { developer: dev, reviewer, merchant: browser },
    appBody({ webhookUrl: `${receiver.url}/hooks`, pricing }),
  );
  return { merchant, browser, app, token };
}

const subscribe = (token: string, planId: string, returnUrl = "https://loyalty.example/billing/done") =>
  p.request("POST", "/app-api/billing/subscriptions", { token, body: { planId, returnUrl } });

/** A merchant's JWT lasts 24 h: after the clock moves, sign in again. */
const freshToken = async (who: { email: string }) =>
  (await p.request("POST", "/auth/login", { body: { email: who.email, password: PASSWORD } })).json.token as string;

const count = async (table: string) =>
  Number((await p.db.execute<{ n: string }>(sql.raw(`select count(*) as n from ${table}`)))[0].n);

describe("pricing in the listing", () => {
  it("stores plans in minor units, shows them in the 2026-11-27 money shape, and refuses bad plans naming the field", async () => {
    const created = await p.request("POST", "/developer/apps", {
      token: dev.token,
      body: appBody({ pricing: PRICING }),
    });
    expect(created.status).toBe(201);
    expect(created.json.pricing[1]).toEqual({
      id: "pro",
      name: "Pro",
      kind: "RECURRING",
      price: { amount: 3000, currency: "USD" },
      interval: "EVERY_30_DAYS",
      trialDays: 14,
    });
    expect(created.json.approvedPricing).toEqual([]);
    for (const [plan, field] of [
      [{ id: "x", name: "X", kind: "RECURRING", price: usd(9.5), interval: "EVERY_30_DAYS" }, "pricing.0.price.amount"],
      [
        { id: "x", name: "X", kind: "RECURRING", price: usd(-100), interval: "EVERY_30_DAYS" },
        "pricing.0.price.amount",
      ],
      [{ id: "x", name: "X", kind: "USAGE" }, "pricing.0.usageCap"],
      [{ id: "x", name: "X", kind: "WEEKLY" }, "pricing.0.kind"],
    ] as const) {
      const res = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody({ pricing: [plan] }) });
      expect(res.status, JSON.stringify(plan)).toBe(400);
      expect(res.json.message).toContain(field);
    }
  });

  it("a pricing change of an approved app waits for review; existing subscribers keep their plan", async () => {
    const { app, token, merchant } = await merchantWithApp();
    const sub = await subscribe(token, "pro");
    await p.request("POST", `/merchant/billing/subscriptions/${sub.json.id}/approve`, { token: merchant.token });
    const changed = PRICING.map((plan) => (plan.id === "pro" ? { ...plan, price: usd(5000) } : plan));
    const patched = await p.request("PATCH", `/developer/apps/${app.id}`, {
      token: dev.token,
      body: { pricing: changed },
    });
    expect(patched.status).toBe(200);
    expect(patched.json.pricing[1].price).toEqual(usd(5000));
    expect(patched.json.approvedPricing[1].price).toEqual(usd(3000));
    // new subscriptions still get the approved price until the update is approved
    expect((await subscribe(token, "pro")).json.price).toEqual(usd(3000));
    await p.request("POST", `/developer/apps/${app.id}/submit`, { token: dev.token });
    const approved = await p.request("POST", `/review/apps/${app.id}/approve`, {
      token: reviewer.token,
      body: { criteria: REVIEW_CRITERIA_KEYS },
    });
    expect(approved.status, approved.text).toBe(200);
    expect((await subscribe(token, "pro")).json.price).toEqual(usd(5000));
    const kept = await p.request("GET", `/app-api/billing/subscriptions/${sub.json.id}`, { token });
    expect(kept.json).toMatchObject({ status: "ACTIVE", price: usd(3000) });
  });
});

describe("subscriptions through the App API and the merchant's approval", () => {
  it("creates a PENDING subscription with a confirmation page; Approve redirects to returnUrl with the outcome", async () => {
    const { token, browser } = await merchantWithApp();
    const created = await subscribe(token, "pro");
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ status: "PENDING", planId: "pro", test: false, price: usd(3000) });
    expect(created.json.confirmationUrl).toBe(`${p.url}/billing/confirm/${created.json.id}`);
    const page = await browser.get(new URL(created.json.confirmationUrl).pathname);
    expect(page.status).toBe(200);
    expect(page.html).toContain("Pro");
    expect(page.html).toContain("$30.00/month");
    expect(page.html).toContain("14-day free trial");
    // not framable
    const raw = await fetch(created.json.confirmationUrl, {
      headers: { Cookie: browser.cookieHeader(new URL(p.url)) },
    });
    expect(raw.headers.get("x-frame-options")).toBe("DENY");
    expect(raw.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    // without the CSRF token: refused, nothing changes
    const forged = await fetch(created.json.confirmationUrl, {
      method: "POST",
      headers: { Cookie: browser.cookieHeader(new URL(p.url)), "Content-Type": "application/x-www-form-urlencoded" },
      body: "decision=approve",
      redirect: "manual",
    });
    expect(forged.status).toBe(403);
    expect((await p.request("GET", `/app-api/billing/subscriptions/${created.json.id}`, { token })).json.status).toBe(
      "PENDING",
    );
    const approved = await browser.post(new URL(created.json.confirmationUrl).pathname, {
      ...hiddenFields(page.html),
      decision: "approve",
    });
    expect(approved.status).toBe(302);
    expect(approved.location).toBe(
      `https://loyalty.example/billing/done?subscription_id=${created.json.id}&status=ACTIVE`,
    );
    const got = await p.request("GET", `/app-api/billing/subscriptions/${created.json.id}`, { token });
    expect(got.json.status).toBe("ACTIVE");
    expect(new Date(got.json.trialEndsAt).getTime() - new Date(got.json.activatedAt).getTime()).toBe(14 * DAY_MS);
    await eventually(async () => {
      const events = receiver.received.filter((r) => r.json?.data?.subscriptionId === created.json.id);
      expect(events.map((e) => [e.json.event, e.json.data.status])).toEqual([["app_subscription.updated", "ACTIVE"]]);
    });
  });

  it("20 concurrent approvals of one subscription activate it once", async () => {
    const { token, merchant } = await merchantWithApp();
    const created = await subscribe(token, "metered");
    const answers = await atOnce(20, () =>
      p.request("POST", `/merchant/billing/subscriptions/${created.json.id}/approve`, { token: merchant.token }),
    );
    expectOutcome(answers, { 200: 1, 409: 19 }, { messages: { 409: /ACTIVE, not PENDING/ } });
    const rows = await p.db.execute<{ n: string }>(
      sql`select count(*) as n from platform_events where type = 'app_subscription.updated' and data->>'subscriptionId' = ${created.json.id}`,
    );
    expect(Number(rows[0].n)).toBe(1);
  });

  it("declining redirects with DECLINED; a second subscription replaces the first, closing it prorated", async () => {
    const { token, merchant, browser } = await merchantWithApp();
    const declined = await subscribe(token, "pro");
    const page = await browser.get(`/billing/confirm/${declined.json.id}`);
    const answer = await browser.post(`/billing/confirm/${declined.json.id}`, {
      ...hiddenFields(page.html),
      decision: "decline",
    });
    expect(answer.location).toContain(`subscription_id=${declined.json.id}&status=DECLINED`);

    const first = await subscribe(token, "metered");
    await p.request("POST", `/merchant/billing/subscriptions/${first.json.id}/approve`, { token: merchant.token });
    advanceClock(10 * DAY_MS + 3600_000); // 10 days and an hour: 10 whole days (the change day is the new plan's)
    try {
      const second = await subscribe(token, "pro");
      const ok = await p.request("POST", `/merchant/billing/subscriptions/${second.json.id}/approve`, {
        token: await freshToken(merchant),
      });
      expect(ok.status).toBe(200);
      const old = await p.request("GET", `/app-api/billing/subscriptions/${first.json.id}`, { token });
      expect(old.json.status).toBe("CANCELLED");
      const lines = await p.db.execute<{ amount: string; description: string }>(
        sql`select amount, description from invoice_lines where subscription_id = ${first.json.id}`,
      );
      // 999 x 10 / 30 = 333 (decision 050)
      expect(lines.map((l) => [Number(l.amount), l.description])).toEqual([[333, "Metered (10 of 30 days)"]]);
    } finally {
      advanceClock(-(10 * DAY_MS + 3600_000));
    }
  });

  it("refuses bad input naming the field, writing nothing", async () => {
    const { token, merchant } = await merchantWithApp();
    const other = await merchantWithApp();
    const before = await count("app_subscriptions");
    const cases: [string, unknown, string][] = [
      ["/app-api/billing/subscriptions", { planId: "nope", returnUrl: "https://loyalty.example/x" }, "planId"],
      ["/app-api/billing/subscriptions", { planId: "pro", returnUrl: "https://evil.example/x" }, "returnUrl"],
      ["/app-api/billing/subscriptions", { planId: "pro", returnUrl: "javascript:alert(1)" }, "returnUrl"],
      ["/app-api/billing/subscriptions", { planId: "free", returnUrl: "https://loyalty.example/x" }, "planId"],
      [
        "/app-api/billing/charges",
        { name: "X", price: usd(-5), returnUrl: "https://loyalty.example/x" },
        "price.amount",
      ],
      [
        "/app-api/billing/charges",
        { name: "X", price: usd(1.5), returnUrl: "https://loyalty.example/x" },
        "price.amount",
      ],
      [
        "/app-api/billing/charges",
        { name: "X", price: usd(100), returnUrl: "http://loyalty.example.evil/x" },
        "returnUrl",
      ],
    ];
    for (const [path, body, field] of cases) {
      const res = await p.request("POST", path, { token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json).toMatchObject({ statusCode: 400, error: "Bad Request" });
      expect(res.json.message).toContain(field);
    }
    expect(await count("app_subscriptions")).toBe(before);

    const sub = await subscribe(token, "metered");
    await p.request("POST", `/merchant/billing/subscriptions/${sub.json.id}/approve`, { token: merchant.token });
    const usageBefore = await count("usage_records");
    for (const [amount, field] of [
      [usd(-10), "amount.amount"],
      [usd(2.5), "amount.amount"],
      [usd(0), "amount.amount"],
      [{ amount: 10, currency: "EUR" }, "amount.currency"],
    ] as const) {
      const res = await p.request("POST", `/app-api/billing/subscriptions/${sub.json.id}/usage`, {
        token,
        body: { description: "x", amount },
      });
      expect(res.status, JSON.stringify(amount)).toBe(400);
      expect(res.json.message).toContain(field);
    }
    // another installation's subscription: 404 for the app, and for another merchant
    const foreign = await p.request("POST", `/app-api/billing/subscriptions/${sub.json.id}/usage`, {
      token: other.token,
      body: { description: "x", amount: usd(10) },
    });
    expect(foreign.status).toBe(404);
    expect(
      (await p.request("GET", `/app-api/billing/subscriptions/${sub.json.id}`, { token: other.token })).status,
    ).toBe(404);
    expect(
      (await p.request("DELETE", `/app-api/billing/subscriptions/${sub.json.id}`, { token: other.token })).status,
    ).toBe(404);
    const pending = await subscribe(token, "pro");
    const theirs = await p.request("POST", `/merchant/billing/subscriptions/${pending.json.id}/approve`, {
      token: other.merchant.token,
    });
    expect(theirs.status).toBe(404);
    expect(await count("usage_records")).toBe(usageBefore);
  });
});

describe("usage under a cap", () => {
  it("20 concurrent records of 10 under a cap of 100: exactly 10 accepted, 10 refused naming cap and balance", async () => {
    const { token, merchant } = await merchantWithApp();
    const sub = await subscribe(token, "metered");
    await p.request("POST", `/merchant/billing/subscriptions/${sub.json.id}/approve`, { token: merchant.token });
    const answers = await atOnce(20, (i) =>
      p.request("POST", `/app-api/billing/subscriptions/${sub.json.id}/usage`, {
        token,
        body: { description: `message ${i}`, amount: usd(10) },
      }),
    );
    expectOutcome(answers, { 201: 10, 409: 10 }, { messages: { 409: /cap of 100 with a balance of (90|100)/ } });
    const got = await p.request("GET", `/app-api/billing/subscriptions/${sub.json.id}`, { token });
    expect(got.json.usageBalance).toEqual(usd(100));
    expect(got.json.usageCap).toEqual(usd(100));
    const [{ total }] = await p.db.execute<{ total: string }>(
      sql`select sum(amount) as total from usage_records where subscription_id = ${sub.json.id}`,
    );
    expect(Number(total)).toBe(100);
    // one 90% warning, whichever request crossed it
    await eventually(async () => {
      const warned = receiver.received.filter(
        (r) => r.json?.data?.subscriptionId === sub.json.id && r.json.data.reason === "CAP_NEARLY_REACHED",
      );
      expect(warned).toHaveLength(1);
      expect(warned[0].json.data.usageBalance.amount).toBeGreaterThanOrEqual(90);
    });
    // the merchant raises the cap: room again
    const raised = await p.request("POST", `/merchant/billing/subscriptions/${sub.json.id}/cap`, {
      token: merchant.token,
      body: { usageCap: usd(200) },
    });
    expect(raised.json.usageCap).toEqual(usd(200));
    const more = await p.request("POST", `/app-api/billing/subscriptions/${sub.json.id}/usage`, {
      token,
      body: { description: "after raise", amount: usd(10) },
    });
    expect(more.status).toBe(201);
    expect(more.json.usageBalance).toEqual(usd(110));
  });

  it("an Idempotency-Key makes a retry answer the first record and charge nothing more", async () => {
    const { token, merchant } = await merchantWithApp();
    const sub = await subscribe(token, "metered");
    await p.request("POST", `/merchant/billing/subscriptions/${sub.json.id}/approve`, { token: merchant.token });
    const send = () =>
      p.request("POST", `/app-api/billing/subscriptions/${sub.json.id}/usage`, {
        token,
        headers: { "Idempotency-Key": "order-42" },
        body: { description: "order 42", amount: usd(25) },
      });
    const answers = await atOnce(5, send);
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.json.id)).size).toBe(1);
    const got = await p.request("GET", `/app-api/billing/subscriptions/${sub.json.id}`, { token });
    expect(got.json.usageBalance).toEqual(usd(25));
    const changed = await p.request("POST", `/app-api/billing/subscriptions/${sub.json.id}/usage`, {
      token,
      headers: { "Idempotency-Key": "order-42" },
      body: { description: "order 42", amount: usd(30) },
    });
    expect(changed.status).toBe(422);
  });
});

describe("periods, invoices and the ledger", () => {
  it("closes a period into invoice lines once (trial free, usage billed), and the ledger balances", async () => {
    const { token, merchant } = await merchantWithApp();
    const metered = await subscribe(token, "metered");
    await p.request("POST", `/merchant/billing/subscriptions/${metered.json.id}/approve`, { token: merchant.token });
    await p.request("POST", `/app-api/billing/subscriptions/${metered.json.id}/usage`, {
      token,
      body: { description: "sms", amount: usd(37) },
    });
    const charge = await p.request("POST", "/app-api/billing/charges", {
      token,
      body: { name: "Setup", price: usd(2500), returnUrl: "https://loyalty.example/x" },
    });
    expect(charge.status).toBe(201);
    expect(charge.json).toMatchObject({ kind: "ONE_TIME", status: "PENDING", planId: null, price: usd(2500) });
    await p.request("POST", `/merchant/billing/subscriptions/${charge.json.id}/approve`, { token: merchant.token });

    advanceClock(30 * DAY_MS + 60_000);
    try {
      await closeDuePeriods(p.db);
      const again = await closeDuePeriods(p.db);
      expect(again.periods).toBe(0);
      const lines = await p.db.execute<{ kind: string; amount: string }>(
        sql`select kind, amount from invoice_lines where business_id = ${merchant.businessId} order by kind`,
      );
      expect(lines.map((l) => [l.kind, Number(l.amount)])).toEqual([
        ["ONE_TIME", 2500],
        ["RECURRING", 999],
        ["USAGE", 37],
      ]);
      const got = await p.request("GET", `/app-api/billing/subscriptions/${metered.json.id}`, { token });
      expect(got.json.usageBalance).toEqual(usd(0));
      const unbalanced = await p.db.execute(
        sql`select transaction_id, currency from ledger_entries group by transaction_id, currency having sum(amount) <> 0`,
      );
      expect(unbalanced).toEqual([]);
    } finally {
      advanceClock(-(30 * DAY_MS + 60_000));
    }
  });

  it("uninstall cancels the subscription, billing its period prorated; a reinstall does not restart the trial", async () => {
    const { token, merchant, browser, app } = await merchantWithApp();
    const sub = await subscribe(token, "pro");
    await p.request("POST", `/merchant/billing/subscriptions/${sub.json.id}/approve`, { token: merchant.token });
    advanceClock(20 * DAY_MS - 60_000); // 19 days and 23:59: the 6th billed day has begun
    try {
      const [inst] = await p.db.execute<{ id: string }>(
        sql`select id from installations where app_id = ${app.id} and business_id = ${merchant.businessId}`,
      );
      const un = await p.request("DELETE", `/merchant/installations/${inst.id}`, { token: await freshToken(merchant) });
      expect(un.status).toBe(200);
      const lines = await p.db.execute<{ amount: string; description: string }>(
        sql`select amount, description from invoice_lines where subscription_id = ${sub.json.id}`,
      );
      // 14 trial days free, 6 of 30 billed: 3000 x 6 / 30 = 600
      expect(lines.map((l) => [Number(l.amount), l.description])).toEqual([[600, "Pro (6 of 30 days)"]]);
      const [ended] = await p.db.execute<{ status: string; ended_by: string }>(
        sql`select status, ended_by from app_subscriptions where id = ${sub.json.id}`,
      );
      expect(ended).toEqual({ status: "CANCELLED", ended_by: "UNINSTALL" });
    } finally {
      advanceClock(-(20 * DAY_MS - 60_000));
    }
    // reinstall: the 14-day trial was used up
    const consent = await browser.get(
      `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: app.clientId, redirect_uri: app.redirectUrl, state: "s" })}`,
    );
    const approved = await browser.post("/oauth/authorize", { ...hiddenFields(consent.html), decision: "approve" });
    const exchanged = await fetch(`${p.url}/oauth/token`, {
      method: "POST",
      headers: {
        Authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64")}`,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: new URL(approved.location!).searchParams.get("code")!,
        redirect_uri: app.redirectUrl,
      }),
    }).then((r) => r.json());
    const again = await subscribe(exchanged.access_token, "pro");
    const ok = await p.request("POST", `/merchant/billing/subscriptions/${again.json.id}/approve`, {
      token: merchant.token,
    });
    expect(ok.status).toBe(200);
    expect(ok.json.trialEndsAt).toBeUndefined();
  });

  it("test installations get test charges: on a test invoice, never in the ledger (contract 19)", async () => {
    const created = await p.request("POST", "/developer/apps", {
      token: dev.token,
      body: appBody({ pricing: PRICING, webhookUrl: `${receiver.url}/hooks` }),
    });
    const inst = await p.request("POST", `/developer/apps/${created.json.id}/test-install`, { token: dev.token });
    const sub = await subscribe(inst.json.accessToken, "metered");
    expect(sub.json.test).toBe(true);
    const devBrowser = await BrowserSession.signIn(p.url, dev.email, PASSWORD);
    const page = await devBrowser.get(`/billing/confirm/${sub.json.id}`);
    expect(page.html).toContain("Test charge: you will not be billed");
    const approved = await devBrowser.post(`/billing/confirm/${sub.json.id}`, {
      ...hiddenFields(page.html),
      decision: "approve",
    });
    expect(approved.location).toContain("status=ACTIVE");
    const used = await p.request("POST", `/app-api/billing/subscriptions/${sub.json.id}/usage`, {
      token: inst.json.accessToken,
      body: { description: "test", amount: usd(50) },
    });
    expect(used.status).toBe(201);
    advanceClock(31 * DAY_MS);
    try {
      await closeDuePeriods(p.db);
      const lines = await p.db.execute<{ amount: string; transaction_id: string | null; test: boolean }>(
        sql`select l.amount, l.transaction_id, i.test from invoice_lines l join invoices i on i.id = l.invoice_id
            where l.subscription_id = ${sub.json.id} order by l.kind`,
      );
      expect(lines.map((l) => [Number(l.amount), l.transaction_id, l.test])).toEqual([
        [999, null, true],
        [50, null, true],
      ]);
      const [ledger] = await p.db.execute<{ n: string }>(
        sql`select count(*) as n from ledger_transactions where key like ${sub.json.id + ":%"}`,
      );
      expect(Number(ledger.n)).toBe(0);
      const after = await p.request("GET", `/app-api/billing/subscriptions/${sub.json.id}`, {
        token: inst.json.accessToken,
      });
      expect(after.json.usageBalance).toEqual(usd(0));
    } finally {
      advanceClock(-31 * DAY_MS);
    }
  });
});
