/** The reference app's manifest: every kind of extension, every hook point. */
export function referenceManifest(appUrl: string) {
  return {
    settingsSchema: {
      type: "object",
      properties: {
        welcomeDiscountCents: { type: "integer", title: "Welcome discount (cents)", minimum: 0, maximum: 5000 },
        freeDeliveryFromCents: { type: "integer", title: "Free delivery from (cents)", minimum: 0 },
      },
    },
    blocks: [
      {
        blockType: "loyalty-banner",
        name: "Loyalty banner",
        description: "Invite shoppers to the loyalty club",
        iconName: "star",
        category: "Loyalty",
        renderUrl: `${appUrl}/block`,
        settingsSchema: {
          type: "object",
          properties: {
            title: { type: "string", title: "Title", maxLength: 80 },
            color: { type: "string", format: "color", title: "Color" },
            showStars: { type: "boolean", title: "Show stars" },
            endsAt: { type: "string", format: "date-time", title: "Offer ends" },
            link: { type: "string", format: "uri", title: "Link" },
          },
        },
        defaultConfig: { title: "Join our loyalty club", color: "#7c3aed", showStars: true },
      },
    ],
    embeds: [
      {
        embedType: "badge",
        name: "Loyalty badge",
        description: "A small badge on every page",
        kind: "GLOBAL_SCRIPT",
        position: "body_end",
        scriptUrl: `${appUrl}/embed.js`,
        settingsSchema: { type: "object", properties: { text: { type: "string", title: "Badge text" } } },
        defaultConfig: { text: "Loyalty club" },
      },
      {
        embedType: "chat",
        name: "Loyalty chat",
        description: "A floating help widget",
        kind: "FLOATING_WIDGET",
        position: "bottom_left",
        renderUrl: `${appUrl}/widget`,
        settingsSchema: { type: "object", properties: { greeting: { type: "string", title: "Greeting" } } },
        defaultConfig: { greeting: "Questions about points?" },
      },
    ],
    hooks: [
      { hookPoint: "checkout.payment_methods", url: "/hooks/payment-methods", timeout: 3000, priority: 50 },
      { hookPoint: "checkout.create_payment", url: "/hooks/create-payment", timeout: 5000 },
      { hookPoint: "checkout.shipping_rates", url: "/hooks/shipping-rates", timeout: 2000 },
      { hookPoint: "order.validate", url: "/hooks/validate", timeout: 2000 },
      { hookPoint: "order.calculate_discounts", url: "/hooks/discounts", timeout: 2000 },
    ],
    adminPages: [{ pageId: "dashboard", title: "Loyalty", iconName: "star", renderUrl: `${appUrl}/admin` }],
  };
}

export const REFERENCE_SCOPES = [
  "read_business",
  "read_orders",
  "read_products",
  "write_payments",
  "write_shipping",
  "write_checkout",
];
export const REFERENCE_EVENTS = ["order.created", "order.status_changed", "order.cancelled", "payment.completed"];

/** The plan the reference app asks merchants to approve: $9.99 every 30 days, 7-day trial, usage up to $20. */
export const REFERENCE_PLAN = "pro";
export const REFERENCE_PRICING = [
  { id: "free", name: "Starter", kind: "FREE" },
  {
    id: REFERENCE_PLAN,
    name: "Pro",
    kind: "RECURRING",
    price: { amount: 999, currency: "USD" },
    interval: "EVERY_30_DAYS",
    trialDays: 7,
    usageCap: { amount: 2000, currency: "USD" },
    usageTerms: "25 cents per loyalty SMS",
  },
];
