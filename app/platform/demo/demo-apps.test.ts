/**
 * The demo marketplace's apps served for real (issue 40, contract 20, decision 062): the platform
 * with its demo data and the demo apps server, as `npm start` runs them. Each app is installed from
 * the marketplace by the demo merchant through the consent form, completes its token exchange, lands
 * on its admin page, and that page's backend verifies the session token and shows the shop's data.
 * Ready Text texts a customer when an order is ready and bills the text as usage; the seeded demo
 * merchant's Billing shows its subscription, usage and invoices, and the developer's Earnings the months.
 */
import { describe, expect, it } from "vitest";
import { startPlatform } from "../testing/platform";
import { BrowserSession, hiddenFields } from "../testing/browser";
import { eventually } from "../testing/receiver";
import { DEMO_LOGINS } from "./demo-logins";
import { DEMO_APP_SLUGS } from "./demo-apps";
import { moveOrderStatus } from "../orders/status.server";
import { demoAppStore } from "./demo-app-store.server";

const p = await startPlatform({ demo: true, worker: true });
const demo = p.demoApps!;
const merchant = DEMO_LOGINS[0];

/** Installs an app from its marketplace page as a signed-in person would, and follows the app back to the admin. */
async function installFromMarketplace(browser: BrowserSession, slug: string) {
  const start = await browser.get(`/marketplace/${slug}/install`);
  expect(start.status).toBe(302);
  const consent = await browser.get(start.location!);
  expect(consent.status).toBe(200);
  expect(consent.html).toContain("Install");
  const approved = await browser.post("/oauth/authorize", { ...hiddenFields(consent.html), decision: "approve" });
  expect(approved.status).toBe(302);
  // the browser goes to the app's own server, on its own origin
  const callback = new URL(approved.location!);
  expect(callback.origin).toBe(new URL(demo.url).origin);
  expect([new URL(p.url).origin, new URL(p.storefrontUrl).origin]).not.toContain(callback.origin);
  const landed = await fetch(callback, { redirect: "manual" });
  expect(landed.status).toBe(303);
  const adminPath = landed.headers.get("location")!;
  expect(adminPath).toMatch(new RegExp(`^${p.url}/admin/ext/inst_[^/]+/dashboard$`));
  return adminPath;
}

/** The admin page as the browser shows it: the platform's frame page, the app's page, and the app's backend answer. */
async function openAdminPage(browser: BrowserSession, adminPath: string) {
  const page = await browser.get(adminPath);
  expect(page.status).toBe(200);
  const src = /<iframe[^>]+src="([^"]+)"/.exec(page.html)![1].replace(/&amp;/g, "&");
  const sessionToken = /"sessionToken":"([^"]+)"/.exec(page.html)![1];
  const framed = await fetch(src);
  expect(framed.status).toBe(200);
  expect(await framed.text()).toContain("createBridge");
  const backend = await fetch(new URL("api/admin", src), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ sessionToken }),
  });
  return { status: backend.status, body: await backend.json() };
}

describe("the demo apps", () => {
  it("run on an origin of their own, and the marketplace's apps point at them", async () => {
    expect(demo.apps.map((a) => a.slug)).toEqual([...DEMO_APP_SLUGS]);
    const rows = await p.sql`select slug, redirect_url, manifest from apps where slug = any(${[...DEMO_APP_SLUGS]})`;
    expect(rows).toHaveLength(6);
    for (const r of rows) expect(r.redirect_url).toBe(`${demo.url}/${r.slug}/oauth/callback`);
    const cards = await fetch(`${p.url}/marketplace`).then((r) => r.text());
    for (const a of demo.apps) expect(cards).toContain(a.name);
  });

  it("each installs from the marketplace and lands on its working admin page", async () => {
    const browser = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
    const statuses: Record<string, string> = {};
    for (const slug of DEMO_APP_SLUGS) {
      const adminPath = await installFromMarketplace(browser, slug);
      const admin = await openAdminPage(browser, adminPath);
      expect(admin.status, `${slug}: ${JSON.stringify(admin.body)}`).toBe(200);
      expect(admin.body.view.status).not.toMatch(/connect|lost/i);
      statuses[slug] = admin.body.view.status;
      // and the app keeps a session of its own for the page's later calls
      expect(typeof admin.body.session).toBe("string");
    }
    expect(Object.keys(statuses)).toHaveLength(6);
    // what the apps read through the App API is the shop's (Sales Pulse: the dashboard's figures)
    const installed = await p.request("POST", "/auth/login", {
      body: { email: merchant.email, password: merchant.password },
    });
    const list = await p.request("GET", "/merchant/installations?limit=100", { token: installed.json.token });
    const active = list.json.data.filter((i: { status: string }) => i.status === "ACTIVE");
    expect(new Set(active.map((i: { appName: string }) => i.appName))).toEqual(new Set(demo.apps.map((a) => a.name)));
  });

  it("refuses an admin call without a valid session token, and a webhook without the right signature", async () => {
    const url = demo.apps.find((a) => a.slug === "sales-pulse")!.url;
    const forged = await fetch(`${url}/api/admin`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ sessionToken: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.bad", session: "biz.9999999999.bad" }),
    });
    expect(forged.status).toBe(401);
    const [bistro] = await p.sql`select id from businesses where name = 'Demo Bistro'`;
    const webhook = await fetch(`${demo.apps.find((a) => a.slug === "ready-text")!.url}/webhooks`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Webhook-Timestamp": String(Math.floor(Date.now() / 1000)),
        "X-Webhook-Signature": "sha256=00",
      },
      body: JSON.stringify({ id: "dlv_x", event: "order.status_changed", businessId: bistro.id, data: {} }),
    });
    expect(webhook.status).toBe(401);
  });

  it("Ready Text texts the customer when an order is ready and bills the text as usage", async () => {
    const [order] =
      await p.sql`select o.id, o.order_number, o.business_id from orders o join businesses b on b.id = o.business_id
      where b.name = 'Demo Bistro' and o.status = 'PREPARING' order by o.order_number limit 1`;
    const [before] = await p.sql`select s.usage_balance from app_subscriptions s join apps a on a.id = s.app_id
      where a.slug = 'ready-text' and s.status = 'ACTIVE'`;
    // the merchant moves it on the order page (the same domain function)
    await moveOrderStatus(p.db, order.business_id, order.id, "READY", "merchant");
    await eventually(async () => {
      const [after] = await p.sql`select s.usage_balance from app_subscriptions s join apps a on a.id = s.app_id
        where a.slug = 'ready-text' and s.status = 'ACTIVE'`;
      expect(Number(after.usage_balance)).toBe(Number(before.usage_balance) + 5);
    }, 20_000);
    const [record] = await p.sql`select description from usage_records order by created_at desc limit 1`;
    expect(record.description).toBe(`Text for order #${order.order_number}`);
  });
});

describe("the demo apps' own store", () => {
  it("keeps tokens encrypted, and forgets a shopper on customer.redact", async () => {
    const [bistro] = await p.sql`select id from businesses where name = 'Demo Bistro'`;
    const [row] = await p.sql`select access_token_enc, data from demo_app_installations
      where app_slug = 'ready-text' and business_id = ${bistro.id}`;
    expect(row.access_token_enc).not.toMatch(/fbat_/);
    const texts = row.data.texts as { orderId: string }[];
    expect(texts.length).toBeGreaterThanOrEqual(13);
    const store = demoAppStore(p.db, p.env.encryptionKey, "ready-text");
    expect((await store.get(bistro.id))!.accessToken).toMatch(/^fbat_/);
    const gone = texts[0].orderId;
    await store.redact(bistro.id, "", [gone]);
    const after = (await store.get(bistro.id))!.data.texts as { orderId: string }[];
    expect(after.some((t) => t.orderId === gone)).toBe(false);
    expect(after.length).toBe(texts.filter((t) => t.orderId !== gone).length);
  });
});

describe("the demo's billing", () => {
  it("Demo Bistro's Billing shows Ready Text's subscription with usage, and past invoices", async () => {
    const browser = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
    const res = await fetch(`${p.url}/admin/billing?_data=routes%2Fadmin.billing`, {
      headers: { Cookie: browser.cookieHeader(new URL(p.url)) },
    });
    expect(res.status).toBe(200);
    const billing = await res.json();
    const sub = billing.subscriptions.find((s: { appName: string }) => s.appName === "Ready Text");
    expect(sub).toMatchObject({ planName: "Text Pro", status: "ACTIVE", test: false, kind: "RECURRING", cap: 2500 });
    expect(sub.used).toBeGreaterThan(0);
    // two periods closed since the plan began 62 days ago: each bills the plan and its texts
    const lines = billing.invoices.flatMap(
      (i: { lines: { appName: string; kind: string; minor: number }[] }) => i.lines,
    );
    const ours = lines.filter((l: { appName: string }) => l.appName === "Ready Text");
    expect(ours.filter((l: { kind: string }) => l.kind === "RECURRING").map((l: { minor: number }) => l.minor)).toEqual(
      [499, 499],
    );
    expect(
      ours
        .filter((l: { kind: string }) => l.kind === "USAGE")
        .map((l: { minor: number }) => l.minor)
        .sort(),
    ).toEqual([20, 30]);
    const thisMonth = new Date().toISOString().slice(0, 7);
    expect(billing.invoices.some((i: { month: string }) => i.month < thisMonth)).toBe(true);
  });

  it("the developer's Earnings show the months Ready Text earned", async () => {
    const dev = DEMO_LOGINS[1];
    const login = await p.request("POST", "/auth/login", { body: { email: dev.email, password: dev.password } });
    const [app] = await p.sql`select id from apps where slug = 'ready-text'`;
    const earnings = await p.request("GET", `/developer/apps/${app.id}/earnings`, { token: login.json.token });
    expect(earnings.status).toBe(200);
    // money as minor units, or as {amount, currency} (decision 050)
    const minor = (m: number | { amount: number }) => (typeof m === "number" ? m : m.amount);
    const gross = earnings.json.months.reduce((s: number, m: { gross: number }) => s + minor(m.gross), 0);
    expect(gross).toBe(499 * 2 + 30 + 20);
    expect(earnings.json.subscribersByPlan).toEqual([{ planId: "text-pro", name: "Text Pro", active: 1 }]);
  });
});
