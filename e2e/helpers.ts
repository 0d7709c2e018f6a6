import { test as base, expect, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { randomBytes } from "node:crypto";

/**
 * Fails on any serious or critical axe-core violation on the page as it is now (WCAG 2.x A and AA
 * rules and axe's best practices). The content of iframes (app blocks, app admin pages) is the
 * app's own and is not checked; the iframe elements themselves are (a title, for instance).
 */
export async function expectAccessible(page: Page, options: { exclude?: string[] } = {}) {
  await page.waitForLoadState("load");
  const builder = new AxeBuilder({ page }).options({ iframes: false });
  for (const selector of options.exclude ?? []) builder.exclude(selector);
  const { violations } = await builder.analyze();
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const report = serious.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.helpUrl})\n${v.nodes.slice(0, 8).map((n) => `    ${n.target.join(" ")}: ${(n.failureSummary ?? "").replace(/\s+/g, " ").slice(0, 300)}`).join("\n")}`);
  expect(report, `axe-core on ${page.url()} (${page.viewportSize()?.width}px wide)`).toEqual([]);
  audited.get(page)?.add(pageKey(page.url()));
}

/** expectAccessible, unless this kind of page (pageKey) was already checked in this test. */
export async function expectAccessibleOnce(page: Page) {
  if (!audited.get(page)?.has(pageKey(page.url()))) await expectAccessible(page);
}

/** The platform's two origins in the tests (decision 013): pages here are ours to check. */
const OUR_ORIGINS = (() => {
  const port = Number(process.env.E2E_PORT ?? 3199);
  return [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
})();

/** A page "kind": the path with record ids (ord_…, 1030, uuids) folded, and the query's keys. */
export function pageKey(href: string): string {
  const url = new URL(href);
  const path = url.pathname
    .split("/")
    .map((seg) => (/^[a-z]{2,5}_[A-Za-z0-9]{6,}$|^\d+$|^[0-9a-f-]{32,36}$/.test(seg) ? ":id" : seg))
    .join("/");
  const keys = [...new Set(url.searchParams.keys())].sort().join("&");
  return `${url.origin}${path}${keys ? `?${keys}` : ""}`;
}

const audited = new WeakMap<Page, Set<string>>();

/**
 * The test of every spec: its `page` runs expectAccessible after each `page.goto` to one of the
 * platform's pages (once per page kind in a test), and at the end of a passing test fails if a
 * page of the platform was shown (reached by a click, a form or a redirect) without a check:
 * call `expectAccessible(page)` there.
 */
export const test = base.extend({
  page: async ({ page }, use, testInfo) => {
    const seen = new Set<string>();
    audited.set(page, new Set());
    const ours = (href: string) => OUR_ORIGINS.some((o) => href.startsWith(`${o}/`));
    const notPages = new Set<string>();
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame() && ours(frame.url())) seen.add(pageKey(frame.url()));
    });
    // a JSON document or a download opened in the tab is not a page
    page.on("response", (response) => {
      const request = response.request();
      if (request.isNavigationRequest() && request.frame() === page.mainFrame() && !(response.headers()["content-type"] ?? "").startsWith("text/html")) notPages.add(pageKey(response.url()));
    });
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      const html = (response?.headers()["content-type"] ?? "").startsWith("text/html");
      if (response && html && ours(page.url())) await expectAccessibleOnce(page);
      return response;
    };
    await use(page);
    if (testInfo.status !== testInfo.expectedStatus) return;
    const missed = [...seen].filter((key) => !audited.get(page)!.has(key) && !notPages.has(key));
    expect(missed, "pages shown without an accessibility check: call expectAccessible(page) on them").toEqual([]);
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
  await expectAccessibleOnce(page);
}

export async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  await expectAccessibleOnce(page);
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
  const created = await request.post("/developer/apps", { data: body, headers: { Authorization: `Bearer ${devToken}` } });
  expect(created.status(), await created.text()).toBe(201);
  const app = await created.json();
  await request.post(`/developer/apps/${app.id}/submit`, { headers: { Authorization: `Bearer ${devToken}` } });
  const approved = await request.post(`/review/apps/${app.id}/approve`, { headers: { Authorization: `Bearer ${reviewerToken}` } });
  expect(approved.status()).toBe(200);
  return { ...app, devToken } as typeof app & { devToken: string; clientSecret: string; clientId: string; slug: string; name: string; id: string };
}

/** A tiny app backend on 127.0.0.1: records requests and answers its OAuth callback with a page. */
export async function startAppServer(): Promise<{ url: string; received: { path: string; query: Record<string, string> }[]; close(): Promise<void> }> {
  const received: { path: string; query: Record<string, string> }[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    received.push({ path: url.pathname, query: Object.fromEntries(url.searchParams) });
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end(`<!doctype html><title>App callback</title><h1>Connected to the app</h1><p id="code">${url.searchParams.get("code") ?? ""}</p>`);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise((r) => server.close(() => r())) };
}
