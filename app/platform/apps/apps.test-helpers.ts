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
