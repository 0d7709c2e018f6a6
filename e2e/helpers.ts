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
  // a navigation that was still under way when the check began: check the page it arrived at
  const { violations } = await analyze().catch(async (error: Error) => {
    if (!/context was destroyed|navigat/i.test(error.message)) throw error;
    return analyze();
  });
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
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
}

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

/** Signs in through the JSON API and returns the bearer token. */
export async function apiToken(request: APIRequestContext, email: string, password: string): Promise<string> {
  const res = await request.post("/auth/login", { data: { email, password } });
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
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise((r) => server.close(() => r())) };
}
