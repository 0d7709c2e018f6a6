/**
 * The sandbox's clock (contract 19, decision 076) through the real server and worker: a test
 * subscription with a trial and usage closes into a test invoice after `advance 31`, prorated; a
 * real merchant's subscription on the same platform does not move; an uninstalled test
 * installation's business.data_erasure arrives 48 sandbox hours after the uninstall; the sandbox's
 * App API calls are answered as of its date (a version past its sunset: 410); bad input is 400.
 */
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { BrowserSession } from "../testing/browser";
import { eventually, startReceiver } from "../testing/receiver";
import { installThroughOAuth } from "../testing/install";
import { appBody } from "../apps/apps.test-helpers";
import { versionState } from "../versions/registry";

const p = await startPlatform({ worker: true });
const PASSWORD = "correct horse battery";
const dev = await p.register("DEVELOPER");
const reviewer = await p.createUser("REVIEWER");
const usd = (amount: number) => ({ amount, currency: "USD" });
const DAY_MS = 86_400_000;
const PLAN = {
  id: "pro",
  name: "Pro",
  kind: "RECURRING",
  price: usd(3000),
  interval: "EVERY_30_DAYS",
  trialDays: 14,
  usageCap: usd(1000),
};

async function sandboxApp(developer = dev) {
  const receiver = await startReceiver({ status: 200 });
  const app = await p.request("POST", "/developer/apps", {
    token: developer.token,
    body: appBody({ webhookUrl: receiver.url + "/hooks", pricing: [PLAN] }),
  });
  expect(app.status).toBe(201);
  const inst = await p.request("POST", `/developer/apps/${app.json.id}/test-install`, { token: developer.token });
  expect(inst.status).toBe(201);
  return { receiver, appId: app.json.id as string, token: inst.json.accessToken as string, inst: inst.json };
}

const subscribe = (token: string) =>
  p.request("POST", "/app-api/billing/subscriptions", {
    token,
    body: { planId: "pro", returnUrl: "https://loyalty.example/billing/done" },
  });
const advance = (days: unknown, token = dev.token) =>
  p.request("POST", "/developer/sandbox/clock", { token, body: { advanceDays: days } });

describe("the sandbox's clock", () => {
  it("advance 31: the trial ends and the period closes into a prorated test invoice; a real subscription does not move", async () => {
    // a real merchant with a real subscription of an approved app, on the same platform
    const merchant = await p.register("MERCHANT");
    const browser = await BrowserSession.signIn(p.url, merchant.email, PASSWORD);
    const real = await installThroughOAuth(
      p,
      { developer: dev, reviewer, merchant: browser },
      appBody({ webhookUrl: "https://loyalty.example/hooks", pricing: [PLAN] }),
    );
    const realSub = await subscribe(real.token);
    await p.request("POST", `/merchant/billing/subscriptions/${realSub.json.id}/approve`, { token: merchant.token });
    const realBefore = await p.request("GET", `/app-api/billing/subscriptions/${realSub.json.id}`, {
      token: real.token,
    });
    expect(realBefore.json.status).toBe("ACTIVE");

    const { token } = await sandboxApp();
    const before = await p.request("GET", "/developer/sandbox/clock", { token: dev.token });
    expect(before.status).toBe(200);
    expect(before.json.offsetSeconds).toBe(0);
    const sub = await subscribe(token);
    expect(sub.json.test).toBe(true);
    // the developer approves in their sandbox's merchant API
    const approved = await p.request("POST", `/merchant/billing/subscriptions/${sub.json.id}/approve`, {
      token: dev.token,
    });
    expect(approved.status).toBe(200);
    const used = await p.request("POST", `/app-api/billing/subscriptions/${sub.json.id}/usage`, {
      token,
      body: { description: "250 messages", amount: usd(250) },
    });
    expect(used.status).toBe(201);

    const moved = await advance(31);
    expect(moved.status).toBe(200);
    expect(moved.json.offsetSeconds).toBe(31 * 86_400);
    expect(Date.parse(moved.json.now) - Date.now()).toBeGreaterThan(31 * DAY_MS - 60_000);
    expect(moved.json.happened.map((h: { kind: string }) => h.kind)).toEqual(["TRIAL_ENDED", "PERIOD_CLOSED"]);

    const invoices = await p.request("GET", "/merchant/billing/invoices", { token: dev.token });
    expect(invoices.status).toBe(200);
    const lines = invoices.json.data.flatMap((i: { test: boolean; lines: unknown[] }) =>
      i.lines.map((l) => ({ test: i.test, ...(l as object) })),
    );
    expect(lines).toHaveLength(2);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          test: true,
          kind: "RECURRING",
          description: "Pro (16 of 30 days)",
          amount: usd(1600),
          transactionId: null,
        }),
        expect.objectContaining({ test: true, kind: "USAGE", amount: usd(250), transactionId: null }),
      ]),
    );
    // the sandbox's admin shows it as a test invoice
    const admin = await BrowserSession.signIn(p.url, dev.email, PASSWORD);
    const page = await admin.get("/admin/billing");
    expect(page.html).toContain("Test invoice: never paid");
    expect(page.html).toContain("Pro (16 of 30 days)");
    // the App API of the sandbox answers as of its date: the next period runs from the sandbox's day 30
    const after = await p.request("GET", `/app-api/billing/subscriptions/${sub.json.id}`, { token });
    expect(Date.parse(after.json.currentPeriodEnd)).toBeGreaterThan(Date.now() + 58 * DAY_MS);
    expect(after.json.usageBalance).toEqual(usd(0));

    // the real subscription: same period, no invoice, nothing in its ledger beyond what it had
    const realAfter = await p.request("GET", `/app-api/billing/subscriptions/${realSub.json.id}`, {
      token: real.token,
    });
    expect(realAfter.json.currentPeriodEnd).toBe(realBefore.json.currentPeriodEnd);
    expect(realAfter.json.trialEndsAt).toBe(realBefore.json.trialEndsAt);
    const realInvoices = await p.request("GET", "/merchant/billing/invoices", { token: merchant.token });
    expect(realInvoices.json.data).toEqual([]);
    const [offsets] = await p.db.execute<{ n: string }>(
      sql`select count(*) as n from businesses where clock_offset_seconds <> 0 and not is_sandbox`,
    );
    expect(Number(offsets.n)).toBe(0);

    const reset = await p.request("POST", "/developer/sandbox/clock/reset", { token: dev.token });
    expect(reset.json.offsetSeconds).toBe(0);
  });

  it("an uninstalled test installation's business.data_erasure arrives once the sandbox is 48 hours on", async () => {
    const developer = await p.register("DEVELOPER");
    const { receiver, appId } = await sandboxApp(developer);
    const gone = await p.request("POST", `/developer/apps/${appId}/test-uninstall`, { token: developer.token });
    expect(gone.status).toBeLessThan(300);
    const erasures = () => receiver.received.filter((r) => r.headers["x-webhook-event"] === "business.data_erasure");
    const one = await advance(1, developer.token);
    expect(one.json.happened).toEqual([]);
    await new Promise((r) => setTimeout(r, 500));
    expect(erasures()).toHaveLength(0);
    const two = await advance(1, developer.token);
    expect(two.json.happened.map((h: { kind: string }) => h.kind)).toEqual(["DATA_ERASURE_SENT"]);
    await eventually(async () => expect(erasures()).toHaveLength(1));
    // the other developer's sandbox did not move
    expect((await p.request("GET", "/developer/sandbox/clock", { token: dev.token })).json.offsetSeconds).toBe(0);
    // and nothing is sent twice
    await advance(5, developer.token);
    await new Promise((r) => setTimeout(r, 500));
    expect(erasures()).toHaveLength(1);
  });

  it("answers the sandbox's App API calls as of its date: a version past its sunset answers 410", async () => {
    const developer = await p.register("DEVELOPER");
    const { token } = await sandboxApp(developer);
    const old = versionState("2026-11-21", new Date())!;
    const call = () => p.request("GET", "/webhooks", { token, headers: { "Api-Version": "2026-11-21" } });
    expect((await call()).status).toBe(200);
    const days = Math.ceil((old.sunsetAt!.getTime() - Date.now()) / DAY_MS) + 1;
    expect(days).toBeLessThanOrEqual(400);
    expect((await advance(days, developer.token)).status).toBe(200);
    const late = await call();
    expect(late.status).toBe(410);
    expect(late.json.message).toContain("passed its sunset");
    // another sandbox's installation, at real time, is still answered in that version
    expect(
      (
        await p.request("GET", "/webhooks", {
          token: (await sandboxApp()).token,
          headers: { "Api-Version": "2026-11-21" },
        })
      ).status,
    ).toBe(200);
  });

  it("refuses advanceDays outside 1-400 (400, the contract's body), and a merchant or anyone unsigned", async () => {
    for (const bad of [0, 401, -1, "x", 1.5, null]) {
      const res = await advance(bad);
      expect(res.status, String(bad)).toBe(400);
      expect(res.json).toEqual({
        statusCode: 400,
        error: "Bad Request",
        message: expect.stringContaining("advanceDays"),
      });
    }
    const merchant = await p.register("MERCHANT");
    expect((await advance(1, merchant.token)).status).toBe(403);
    expect((await p.request("POST", "/developer/sandbox/clock", { body: { advanceDays: 1 } })).status).toBe(401);
    expect((await p.request("GET", "/developer/sandbox/clock", { token: dev.token })).json.offsetSeconds).toBe(0);
  });
});
