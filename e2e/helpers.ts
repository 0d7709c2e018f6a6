import { expect, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";

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
