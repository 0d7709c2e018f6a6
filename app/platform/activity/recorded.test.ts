/**
 * Every action of contract 18 lands in the activity log, with the right actor (decision 085): each
 * group is done through HTTP as the merchant, the developer, the reviewer or the app does it, and
 * its entry found through GET /merchant/activity or GET /developer/apps/<id>/activity.
 */
import { describe, expect, it } from "vitest";
import { startPlatform } from "../testing/platform";
import { BrowserSession } from "../testing/browser";
import { installThroughOAuth } from "../testing/install";
import { appBody } from "../apps/apps.test-helpers";
import { starsBlock } from "../testing/manifests";
import { REVIEW_CRITERIA_KEYS } from "../shapes/app-catalog";

const p = await startPlatform({ env: { APP_API_RATE_LIMIT: "100000" } });
const reviewer = await p.createUser("REVIEWER");
const dev = await p.register("DEVELOPER");

type Entry = {
  id: string;
  action: string;
  actor: { type: string; id: string | null; email?: string };
  target: { type: string; id: string };
  ip: string | null;
  details: Record<string, unknown>;
};

/** The entries of one action in a business's log (the owner's token) or an app's (a member's token). */
async function entries(token: string, action: string, appId?: string): Promise<Entry[]> {
  const path = appId ? `/developer/apps/${appId}/activity` : "/merchant/activity";
  const res = await p.request("GET", `${path}?action=${action}&limit=100`, { token });
  expect(res.status, res.text).toBe(200);
  return res.json.data as Entry[];
}

async function merchantWithApp(overrides: Record<string, unknown> = {}) {
  const merchant = await p.register("MERCHANT");
  const browser = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
  const { app, token } = await installThroughOAuth(
    p,
    { developer: dev, reviewer, merchant: browser },
    appBody({ webhookUrl: undefined, webhookEvents: [], ...overrides }),
  );
  const list = await p.request("GET", "/merchant/installations", { token: merchant.token });
  const installationId = list.json.data.find((i: { appId: string }) => i.appId === app.id).installationId as string;
  return { merchant, browser, app, token, installationId };
}

describe("installs, re-consent and uninstalls", () => {
  it("the merchant's install, approval of added scopes and uninstall, in the business's log and the app's", async () => {
    const { merchant, app, installationId } = await merchantWithApp();
    const [installed] = await entries(merchant.token, "installation.created");
    expect(installed).toMatchObject({
      actor: { type: "ACCOUNT", id: merchant.account.id, email: merchant.email },
      target: { type: "installation", id: installationId },
      ip: expect.any(String),
      details: { app: app.name, scopes: app.scopes, test: false },
    });
    expect((await entries(dev.token, "installation.created", app.id)).map((e) => e.target.id)).toContain(
      installationId,
    );

    // an update that adds a scope, approved by review: the merchant approves it
    await p.request("PATCH", `/developer/apps/${app.id}`, {
      token: dev.token,
      body: { scopes: [...app.scopes, "read_business"] },
    });
    await p.request("POST", `/developer/apps/${app.id}/submit`, { token: dev.token });
    await p.request("POST", `/review/apps/${app.id}/approve`, {
      token: reviewer.token,
      body: { criteria: REVIEW_CRITERIA_KEYS },
    });
    const consent = await p.request("POST", `/merchant/installations/${installationId}/consent`, {
      token: merchant.token,
    });
    expect(consent.status, consent.text).toBe(200);
    const [approved] = await entries(merchant.token, "installation.scopes_approved");
    expect(approved).toMatchObject({
      actor: { type: "ACCOUNT", id: merchant.account.id },
      target: { type: "installation", id: installationId },
      details: { added: ["read_business"] },
    });

    expect(
      (await p.request("DELETE", `/merchant/installations/${installationId}`, { token: merchant.token })).status,
    ).toBe(200);
    const [gone] = await entries(merchant.token, "installation.uninstalled");
    expect(gone).toMatchObject({
      actor: { type: "ACCOUNT", id: merchant.account.id, email: merchant.email },
      target: { type: "installation", id: installationId },
    });
    // another business's log has none of it
    const other = await p.register("MERCHANT");
    expect(await entries(other.token, "installation.created")).toEqual([]);
  });

  it("the developer's test install and test uninstall, in the app's log", async () => {
    const created = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody() });
    const appId = created.json.id as string;
    expect((await p.request("POST", `/developer/apps/${appId}/test-install`, { token: dev.token })).status).toBe(201);
    expect((await p.request("POST", `/developer/apps/${appId}/test-uninstall`, { token: dev.token })).status).toBe(200);
    const [installed] = await entries(dev.token, "installation.created", appId);
    expect(installed).toMatchObject({ actor: { type: "ACCOUNT", id: dev.account.id }, details: { test: true } });
    expect(await entries(dev.token, "installation.uninstalled", appId)).toHaveLength(1);
  });
});

describe("charges", () => {
  it("the merchant's approval and decline of an app's requests", async () => {
    const pricing = [
      {
        id: "pro",
        name: "Pro",
        kind: "RECURRING",
        price: { amount: 3000, currency: "USD" },
        interval: "EVERY_30_DAYS",
      },
      { id: "lifetime", name: "Lifetime", kind: "ONE_TIME", price: { amount: 4900, currency: "USD" } },
    ];
    const { merchant, app, token } = await merchantWithApp({ pricing });
    const ask = (planId: string) =>
      p.request("POST", "/app-api/billing/subscriptions", {
        token,
        body: { planId, returnUrl: "https://loyalty.example/billing/done" },
      });
    const pro = await ask("pro");
    expect(pro.status, pro.text).toBe(201);
    const lifetime = await ask("lifetime");
    expect(
      (await p.request("POST", `/merchant/billing/subscriptions/${pro.json.id}/approve`, { token: merchant.token }))
        .status,
    ).toBe(200);
    expect(
      (
        await p.request("POST", `/merchant/billing/subscriptions/${lifetime.json.id}/decline`, {
          token: merchant.token,
        })
      ).status,
    ).toBe(200);
    const [approved] = await entries(merchant.token, "charge.approved");
    expect(approved).toMatchObject({
      actor: { type: "ACCOUNT", id: merchant.account.id },
      target: { type: "subscription", id: pro.json.id },
      details: { plan: "Pro", kind: "RECURRING", price: 3000, currency: "USD" },
    });
    const [declined] = await entries(merchant.token, "charge.declined");
    expect(declined).toMatchObject({
      target: { type: "subscription", id: lifetime.json.id },
      details: { plan: "Lifetime" },
    });
    // the app's members see their app's charges answered
    expect(await entries(dev.token, "charge.approved", app.id)).toHaveLength(1);
  });
});

describe("the app's credentials, manifest, submissions and review", () => {
  it("a secret rotation (never the secret), a manifest sync, a submission, a rejection and an approval", async () => {
    const created = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody() });
    const appId = created.json.id as string;
    const rotated = await p.request("POST", `/developer/apps/${appId}/client-secret`, { token: dev.token });
    expect(rotated.status, rotated.text).toBe(200);
    const [rotation] = await entries(dev.token, "app.secret_rotated", appId);
    expect(rotation).toMatchObject({
      actor: { type: "ACCOUNT", id: dev.account.id, email: dev.email },
      target: { type: "app", id: appId },
      ip: expect.any(String),
    });
    expect(JSON.stringify(rotation)).not.toContain(rotated.json.clientSecret);

    const put = await p.request("PUT", `/developer/apps/${appId}/manifest`, {
      token: dev.token,
      body: { blocks: [starsBlock()] },
    });
    expect(put.status, put.text).toBe(200);
    const [synced] = await entries(dev.token, "manifest.synced", appId);
    expect(synced).toMatchObject({
      actor: { type: "ACCOUNT", id: dev.account.id },
      details: { created: [expect.any(String)] },
    });
    // a dry run changes nothing and is no entry
    await p.request("PUT", `/developer/apps/${appId}/manifest?dryRun=true`, { token: dev.token, body: {} });
    expect(await entries(dev.token, "manifest.synced", appId)).toHaveLength(1);

    await p.request("POST", `/developer/apps/${appId}/submit`, { token: dev.token });
    const rejected = await p.request("POST", `/review/apps/${appId}/reject`, {
      token: reviewer.token,
      body: { notes: "Add a privacy policy." },
    });
    expect(rejected.status, rejected.text).toBe(200);
    await p.request("POST", `/developer/apps/${appId}/submit`, { token: dev.token });
    await p.request("POST", `/review/apps/${appId}/approve`, {
      token: reviewer.token,
      body: { criteria: REVIEW_CRITERIA_KEYS },
    });
    expect(await entries(dev.token, "app.submitted", appId)).toHaveLength(2);
    const [no] = await entries(dev.token, "app.rejected", appId);
    expect(no).toMatchObject({
      actor: { type: "ACCOUNT", id: reviewer.account.id },
      details: { notes: "Add a privacy policy." },
    });
    const [yes] = await entries(dev.token, "app.approved", appId);
    expect(yes).toMatchObject({
      actor: { type: "ACCOUNT", id: reviewer.account.id },
      target: { type: "app", id: appId },
    });
    // another developer reads none of it
    const stranger = await p.register("DEVELOPER");
    expect((await p.request("GET", `/developer/apps/${appId}/activity`, { token: stranger.token })).status).toBe(404);
  });
});

describe("webhook registrations through the App API", () => {
  it("the app is the actor of its registrations' creation, change and removal", async () => {
    const { merchant, app, token } = await merchantWithApp();
    const made = await p.request("POST", "/webhooks", {
      token,
      body: { url: "https://loyalty.example/orders", events: ["order.created"] },
    });
    expect(made.status, made.text).toBe(201);
    const id = made.json.id as string;
    expect((await p.request("PATCH", `/webhooks/${id}`, { token, body: { isActive: false } })).status).toBe(200);
    expect((await p.request("DELETE", `/webhooks/${id}`, { token })).status).toBe(204);
    const [created] = await entries(merchant.token, "webhook.created");
    expect(created).toMatchObject({
      actor: { type: "APP", id: app.id },
      target: { type: "webhook", id },
      details: { url: "https://loyalty.example/orders", events: ["order.created"] },
    });
    expect(created.actor.email).toBeUndefined();
    expect(JSON.stringify(created)).not.toContain(made.json.secret);
    const [changed] = await entries(merchant.token, "webhook.updated");
    expect(changed).toMatchObject({ actor: { type: "APP", id: app.id }, details: { isActive: false } });
    expect(await entries(merchant.token, "webhook.deleted")).toHaveLength(1);
    expect(await entries(dev.token, "webhook.deleted", app.id)).toHaveLength(1);
    // filtered by the app as actor
    const byApp = await p.request("GET", `/merchant/activity?actor=${app.id}`, { token: merchant.token });
    expect(byApp.json.data.map((e: Entry) => e.action).sort()).toEqual([
      "webhook.created",
      "webhook.deleted",
      "webhook.updated",
    ]);
  });
});

describe("the business's settings", () => {
  it("a change of an app's fields, through the API and the portal, names what changed; a change of nothing is no entry", async () => {
    const created = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody() });
    const appId = created.json.id as string;
    const patch = (body: Record<string, unknown>) =>
      p.request("PATCH", `/developer/apps/${appId}`, { token: dev.token, body });
    expect((await patch({ name: "Renamed App", scopes: ["read_orders"] })).status).toBe(200);
    expect((await patch({ name: "Renamed App" })).status).toBe(200);
    const changed = await entries(dev.token, "settings.changed", appId);
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({
      actor: { type: "ACCOUNT", id: dev.account.id, email: dev.email },
      target: { type: "app", id: appId },
      ip: expect.any(String),
      details: {
        name: { from: created.json.name, to: "Renamed App" },
        scopes: { from: created.json.scopes, to: ["read_orders"] },
      },
    });
    // the portal's API version form (its own page) is logged the same way, by the signed-in developer
    const browser = await BrowserSession.signIn(p.url, dev.email, dev.password);
    const current = created.json.apiVersion as string;
    const versions = await p.request("GET", "/app-api/versions");
    const other = (versions.json.supported as { version: string }[]).map((v) => v.version).find((v) => v !== current);
    expect(other, "a second supported version to pin").toBeDefined();
    expect((await browser.post(`/portal/apps/${appId}/api`, { apiVersion: other! })).status).toBe(302);
    const [pinned] = await entries(dev.token, "settings.changed", appId);
    expect(pinned).toMatchObject({
      actor: { type: "ACCOUNT", id: dev.account.id },
      details: { apiVersion: { from: current, to: other } },
    });
  });

  it("a change on the Settings page names the fields that changed, from what to what; a save of nothing is no entry", async () => {
    const merchant = await p.register("MERCHANT");
    const b = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
    const page = await b.get("/admin/settings");
    const value = (name: string) => new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(page.html)?.[1] ?? "";
    const form = {
      name: "Renamed Shop",
      type: "RETAIL",
      metaDescription: "",
      address: "",
      phone: "",
      email: "",
      currency: value("currency"),
      locale: value("locale"),
      timezone: "Asia/Tokyo",
    };
    expect((await b.post("/admin/settings", form)).status).toBe(302);
    expect((await b.post("/admin/settings", form)).status).toBe(302);
    const changed = await entries(merchant.token, "settings.changed");
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({
      actor: { type: "ACCOUNT", id: merchant.account.id, email: merchant.email },
      target: { type: "business", id: merchant.businessId },
      details: { name: { to: "Renamed Shop" }, timezone: { from: "UTC", to: "Asia/Tokyo" } },
    });
    expect(changed[0].details.currency).toBeUndefined();
  });
});
