import { expect } from "vitest";
import type { TestPlatform } from "../testing/platform";
import { REVIEW_CRITERIA_KEYS } from "../shapes/app-catalog";

/** A valid app body for tests and the demo data. */
export function appBody(overrides: Record<string, unknown> = {}) {
  const slug = `app-${Math.random().toString(36).slice(2, 10)}`;
  return {
    name: "Loyalty Stars",
    slug,
    description: "Reward repeat customers with points.",
    category: "loyalty",
    scopes: ["read_orders", "read_products"],
    redirectUrl: "https://loyalty.example/oauth/callback",
    webhookUrl: "https://loyalty.example/webhooks",
    webhookEvents: ["order.created"],
    ...overrides,
  };
}

/** A paid plan, so that a (test) installation can hold a subscription (app_subscription.updated). */
export const PRO_PLAN = {
  id: "pro",
  name: "Pro",
  kind: "RECURRING",
  price: { amount: 900, currency: "USD" },
  interval: "EVERY_30_DAYS",
} as const;

/** A metered plan: $9.99 every 30 days and usage up to $1.00 a period. */
export const METERED_PLAN = {
  id: "metered",
  name: "Metered",
  kind: "RECURRING",
  price: { amount: 999, currency: "USD" },
  interval: "EVERY_30_DAYS",
  usageCap: { amount: 100, currency: "USD" },
  usageTerms: "10 cents per message",
} as const;

/** A new app of `developer`'s, submitted and approved by `reviewer`: the approved app and its client secret. */
export async function publishedApp(
  p: Pick<TestPlatform, "request">,
  tokens: { developer: string; reviewer: string },
  overrides: Record<string, unknown> = {},
) {
  const created = await p.request("POST", "/developer/apps", { token: tokens.developer, body: appBody(overrides) });
  expect(created.status).toBe(201);
  await p.request("POST", `/developer/apps/${created.json.id}/submit`, { token: tokens.developer });
  const approved = await p.request("POST", `/review/apps/${created.json.id}/approve`, {
    token: tokens.reviewer,
    body: { criteria: REVIEW_CRITERIA_KEYS },
  });
  expect(approved.status).toBe(200);
  expect(approved.json.status).toBe("APPROVED");
  return { ...approved.json, clientSecret: created.json.clientSecret as string };
}

/** An app's whole configuration as a release takes it (contract 19), for the body appBody() makes. */
export function releaseConfig(apiVersion: string, overrides: Record<string, unknown> = {}) {
  const { name, description, scopes, redirectUrl, webhookUrl, webhookEvents } = appBody();
  return {
    name,
    description,
    scopes,
    redirectUrl,
    webhookUrl,
    webhookEvents,
    pricing: [],
    apiVersion,
    manifest: null,
    ...overrides,
  };
}
