import { totpCodes } from "../app/platform/testing/browser";
import { test as base, expect, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { randomBytes } from "node:crypto";

/**
 * Fails on any serious or critical axe-core violation on the page as it is now (WCAG 2.x A and AA
 * rules and axe's best practices). The content of iframes (app blocks, app admin pages) is the
 * app's own and is not checked; the iframe elements themselves are (a title, for instance).
 */
export async function expectAccessible(page: Page, options: { exclude?: string[] } = {}) {
  const analyze = async () => {
    await page.waitForLoadState("load");
    // legacy mode: one axe.run in the page itself, which honours `iframes: false` (the default
    // mode tests every frame, and opens a page of its own in the context to merge the results)
    const builder = new AxeBuilder({ page }).setLegacyMode(true).options({ iframes: false });
    for (const selector of options.exclude ?? []) builder.exclude(selector);
    return builder.analyze();
  };
  // a navigation that was still under way when the check began (a redirect chain through another
  // origin makes several): check the page it arrived at
  const settled = async (attempt: number): Promise<Awaited<ReturnType<typeof analyze>>> =>
    analyze().catch(async (error: Error) => {
      if (attempt >= 5 || !/context was destroyed|navigat/i.test(error.message)) throw error;
      await page.waitForTimeout(200 * attempt);
      return settled(attempt + 1);
    });
  const { violations } = await settled(1);
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const report = serious.map(
    (v) =>
      `${v.impact} ${v.id}: ${v.help} (${v.helpUrl})\n${v.nodes
        .slice(0, 8)
        .map((n) => `    ${n.target.join(" ")}: ${(n.failureSummary ?? "").replace(/\s+/g, " ").slice(0, 300)}`)
        .join("\n")}`,
  );
  expect(report, `axe-core on ${page.url()} (${page.viewportSize()?.width}px wide)`).toEqual([]);
  audits.get(page)?.checked.add(pageKey(page.url()));
}

/** The platform's two origins in the tests (decision 013): their pages are ours to check. */
const OUR_ORIGINS = (() => {
  const port = Number(process.env.E2E_PORT ?? 3199);
  return [`http://localhost:${port}/`, `http://127.0.0.1:${port}/`];
})();

/** A kind of page: the path with record ids (ord_…, 1030, uuids) folded, and the query's keys. */
export function pageKey(href: string): string {
  const url = new URL(href);
  const path = url.pathname
    .split("/")
    .map((seg) => (/^[a-z]{2,5}_[A-Za-z0-9]{6,}$|^\d+$|^[0-9a-f-]{32,36}$/.test(seg) ? ":id" : seg))
    .join("/");
  const keys = [...new Set(url.searchParams.keys())].sort().join("&");
  return `${url.origin}${path}${keys ? `?${keys}` : ""}`;
}

const audits = new WeakMap<Page, { checked: Set<string>; busy: boolean }>();

/** expectAccessible on the page the test is looking at, unless this kind of page was checked already. */
async function checkIfNew(page: Page) {
  const audit = audits.get(page);
  if (!audit || audit.busy || page.isClosed()) return;
  const url = page.url();
  if (!OUR_ORIGINS.some((o) => url.startsWith(o)) || audit.checked.has(pageKey(url))) return;
  audit.busy = true;
  try {
    // a JSON document or a text file opened in the tab is not a page
    const type = await page.evaluate(() => document.contentType).catch(() => "text/html");
    if (type === "text/html") await expectAccessible(page);
  } finally {
    audit.busy = false;
  }
}

const ACTIONS = {
  locator: [
    "click",
    "dblclick",
    "tap",
    "fill",
    "clear",
    "press",
    "pressSequentially",
    "type",
    "check",
    "uncheck",
    "setChecked",
    "selectOption",
    "setInputFiles",
    "dragTo",
    "hover",
  ],
  page: [
    "goto",
    "reload",
    "goBack",
    "goForward",
    "click",
    "dblclick",
    "tap",
    "fill",
    "press",
    "type",
    "check",
    "uncheck",
    "selectOption",
    "setInputFiles",
    "hover",
    "close",
  ],
};
let patched = false;

/** Before a test acts on a page (a click, typing, a navigation), the page it is on gets checked. */
function checkBeforeActions(page: Page) {
  if (patched) return;
  patched = true;
  const wrap = (proto: Record<string, unknown>, names: string[], pageOf: (self: any) => Page) => {
    for (const name of names) {
      const original = proto[name];
      if (typeof original !== "function") continue;
      proto[name] = async function (this: unknown, ...args: unknown[]) {
        await checkIfNew(pageOf(this));
        return original.apply(this, args);
      };
    }
  };
  wrap(Object.getPrototypeOf(page.locator("html")), ACTIONS.locator, (locator) => locator.page());
  wrap(Object.getPrototypeOf(page), ACTIONS.page, (p) => p);
}

/**
 * The `test` of every spec. axe-core checks each kind of platform page (pageKey) that the test
 * shows, once per test: before the first action on it (a click, typing, a navigation away) and,
 * for the page the test ends on, at the end. A serious or critical violation fails the test. Call
 * expectAccessible(page) yourself for a state worth its own check (an open dialog, errors shown).
 */
export const test = base.extend({
  page: async ({ page }, use, testInfo) => {
    audits.set(page, { checked: new Set(), busy: false });
    checkBeforeActions(page);
    await use(page);
    if (testInfo.status === testInfo.expectedStatus) await checkIfNew(page);
  },
});
export { expect };

export const uniqueEmail = (prefix: string) => `${prefix}-${randomBytes(4).toString("hex")}@example.test`;

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // the demo reviewer (platform staff) has a second factor (decision 072): the code step
  if (email === DEMO.reviewer.email) {
    await expect(page.getByRole("heading", { name: "Two-step sign-in" })).toBeVisible();
    for (const code of totpCodes(DEMO_REVIEWER_TOTP_SECRET)) {
      await page.locator('input[name="code"]').fill(await code);
      await page.getByRole("button", { name: "Verify" }).click();
      const done = await page
        .getByRole("button", { name: "Sign out" })
        .waitFor({ timeout: 3000 })
        .then(() => true)
        .catch(() => false);
      if (done) break;
    }
  }
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
}

/**
 * On a reviewer's app page: ticks the five review criteria once the page shows them (a client-side
 * navigation may still be under way when the test gets there) and approves.
 */
export async function approveWithEveryCriterion(page: Page) {
  const criteria = page.locator('input[name="criteria"]');
  await expect(criteria).toHaveCount(5);
  for (const box of await criteria.all()) await box.check();
  for (const box of await criteria.all()) await expect(box).toBeChecked();
  await page.getByRole("button", { name: "Approve" }).click();
}

/** The demo reviewer's authenticator secret (README, decision 072). */
export const DEMO_REVIEWER_TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

/** Codes to try for a TOTP secret (each works once per 30 s step): this step's, the next one's, then after waiting. */
export { totpCodes };

export async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
}

export const DEMO = {
  merchant: { email: "merchant@demo.test", password: "demo-merchant-1" },
  developer: { email: "developer@demo.test", password: "demo-developer-1" },
  reviewer: { email: "reviewer@demo.test", password: "demo-reviewer-1" },
};

import type { APIRequestContext } from "@playwright/test";
import http from "node:http";
import { listenLocally } from "../app/platform/testing/listen";
import { REVIEW_CRITERIA_KEYS } from "../app/platform/shapes/app-catalog";

/** Signs in through the JSON API and returns the bearer token. */
export async function apiToken(request: APIRequestContext, email: string, password: string): Promise<string> {
  let res = await request.post("/auth/login", { data: { email, password } });
  // an account with a second factor (the demo reviewer): the code, as its authenticator would give it
  if (res.status() === 401 && (await res.json()).mfaRequired && email === DEMO.reviewer.email)
    for (const code of totpCodes(DEMO_REVIEWER_TOTP_SECRET)) {
      res = await request.post("/auth/login", { data: { email, password, otp: await code } });
      if (res.status() === 200) break;
    }
  expect(res.status()).toBe(200);
  return (await res.json()).token;
}

/** Creates, submits and approves an app as the demo developer and reviewer. */
export async function publishApp(request: APIRequestContext, body: Record<string, unknown>) {
  const devToken = await apiToken(request, DEMO.developer.email, DEMO.developer.password);
  const reviewerToken = await apiToken(request, DEMO.reviewer.email, DEMO.reviewer.password);
  const created = await request.post("/developer/apps", {
    data: body,
    headers: { Authorization: `Bearer ${devToken}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  const app = await created.json();
  await request.post(`/developer/apps/${app.id}/submit`, { headers: { Authorization: `Bearer ${devToken}` } });
  const approved = await request.post(`/review/apps/${app.id}/approve`, {
    data: { criteria: REVIEW_CRITERIA_KEYS },
    headers: { Authorization: `Bearer ${reviewerToken}` },
  });
  expect(approved.status()).toBe(200);
  return { ...app, devToken } as typeof app & {
    devToken: string;
    clientSecret: string;
    clientId: string;
    slug: string;
    name: string;
    id: string;
  };
}

type AppBody = Record<string, unknown>;

/**
 * publishApp for one test: the app's name and slug carry a fresh suffix (runs never collide), and its
 * OAuth callback is `<backendUrl>/oauth/callback`. `body` is the rest of the app (or made from the
 * suffix, for a manifest that names things after it). Returns the published app and the suffix.
 */
export async function publishTestApp(
  request: APIRequestContext,
  name: string,
  backendUrl: string,
  body: AppBody | ((suffix: string) => AppBody),
) {
  const suffix = randomBytes(3).toString("hex");
  const app = await publishApp(request, {
    name: `${name} ${suffix}`,
    slug: `${name.toLowerCase().replace(/ /g, "-")}-${suffix}`,
    redirectUrl: `${backendUrl}/oauth/callback`,
    ...(typeof body === "function" ? body(suffix) : body),
  });
  return Object.assign(app, { suffix });
}

/** Registers a new developer account through the JSON API (email dev-…@example.test); returns its token. */
export async function registerDeveloper(request: APIRequestContext, name: string, password: string) {
  const email = `dev-${randomBytes(4).toString("hex")}@example.test`;
  const res = await request.post("/auth/register", { data: { email, password, name, role: "DEVELOPER" } });
  const { token, businessId } = (await res.json()) as { token: string; businessId: string };
  return { email, token, businessId };
}

/** Creates an app (not submitted) as the developer whose bearer token is given; returns it. */
export async function createApp(request: APIRequestContext, token: string, data: AppBody) {
  const res = await request.post("/developer/apps", { headers: { Authorization: `Bearer ${token}` }, data });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: string; slug: string; name: string; clientId: string; clientSecret: string };
}

/** The merchant signed in on `page` opens the app in the marketplace and approves its consent screen. */
export async function consentToInstall(page: Page, slug: string) {
  await page.goto(`/marketplace/${slug}`);
  await page.getByRole("link", { name: "Install" }).click();
  await page.getByRole("button", { name: "Install" }).click();
}

/** consentToInstall, then the app's OAuth callback page (of startAppServer) shows. */
export async function installApp(page: Page, slug: string) {
  await consentToInstall(page, slug);
  await expect(page.getByRole("heading", { name: "Connected to the app" })).toBeVisible();
}

/** A block's settings: a color and a title (plus `extra` properties), as the e2e app's block page reads them. */
export const colorTitleSettings = (extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties: {
    color: { type: "string", format: "color", title: "Color" },
    title: { type: "string", title: "Title" },
    ...extra,
  },
});

/** The "Star banner" block of the e2e app (its /block page), colored and titled by its settings. */
export const starBannerBlock = (backendUrl: string, blockType: string, category: string) => ({
  blockType,
  name: "Star banner",
  description: "A colored banner",
  iconName: "star",
  category,
  renderUrl: `${backendUrl}/block`,
  settingsSchema: colorTitleSettings(),
  defaultConfig: { color: "#ff8800", title: "Rate us" },
});

/** The e2e app's chat widget (its /widget page), a FLOATING_WIDGET at the bottom right. */
export const chatWidgetEmbed = (backendUrl: string) => ({
  embedType: "chat",
  name: "Chat",
  kind: "FLOATING_WIDGET",
  position: "bottom_right",
  renderUrl: `${backendUrl}/widget`,
  defaultConfig: { color: "#2255aa", title: "Chat with us" },
});

/** A GLOBAL_SCRIPT embed loading `scriptUrl` at `position`. */
export const scriptEmbed = (
  embedType: string,
  name: string,
  position: string,
  scriptUrl: string,
  extra: Record<string, unknown> = {},
) => ({ embedType, name, kind: "GLOBAL_SCRIPT", position, scriptUrl, ...extra });

/** Full-page screenshots at 1280x800 and 390x844 (reloaded at phone width when asked), back to 1280 after. */
export async function shots(page: Page, name: string, options: { reload?: boolean } = {}) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `.data/e2e-results/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  if (options.reload) await page.reload();
  await page.screenshot({ path: `.data/e2e-results/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Signs up through the form (the caller checks where it lands: the portal or the admin). */
export async function signUp(
  page: Page,
  as: { role: "Build apps" | "Run a shop"; name: string; email: string; password: string; business?: string },
) {
  await page.goto("/signup");
  await page.getByLabel(as.role).check();
  await page.getByLabel("Your name").fill(as.name);
  await page.getByLabel("Email").fill(as.email);
  await page.getByLabel(/^Password/).fill(as.password);
  if (as.business) await page.getByLabel("Business name").fill(as.business);
  await page.getByRole("button", { name: "Create account" }).click();
}

/** A tiny app backend on 127.0.0.1: records requests and answers its OAuth callback with a page. */
export async function startAppServer(): Promise<{
  url: string;
  received: { path: string; query: Record<string, string> }[];
  close(): Promise<void>;
}> {
  const received: { path: string; query: Record<string, string> }[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    received.push({ path: url.pathname, query: Object.fromEntries(url.searchParams) });
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end(
      `<!doctype html><title>App callback</title><h1>Connected to the app</h1><p id="code">${url.searchParams.get("code") ?? ""}</p>`,
    );
  });
  return { url: await listenLocally(server), received, close: () => new Promise((r) => server.close(() => r())) };
}
