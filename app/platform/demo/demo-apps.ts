/**
 * The demo marketplace's six apps as the platform knows them (decision 062): their addresses on the
 * demo apps server, webhook events, manifest (blocks, embeds, hooks, admin page, settings) and
 * pricing. The server that answers at these addresses is `apps-server.server.ts`; the listings'
 * words (name, description, category, reviews) are in `apps/marketplace-demo.server.ts` and
 * `demo/seed.server.ts`. No server code here.
 */

export const DEMO_APP_SLUGS = [
  "loyalty-stars",
  "parcel-pilot",
  "mailroom-campaigns",
  "sales-pulse",
  "counter-sync",
  "ready-text",
] as const;
export type DemoAppSlug = (typeof DEMO_APP_SLUGS)[number];

export const isDemoAppSlug = (slug: string): slug is DemoAppSlug =>
  (DEMO_APP_SLUGS as readonly string[]).includes(slug);

/** The API version the demo apps speak (money as `{amount, currency}` in minor units). */
export const DEMO_API_PIN = "2026-11-27";
/** Where the demo apps' records point when the demo apps server is off (DEMO_APPS_PORT=off). */
export const DEMO_APP_FALLBACK_URL = "http://127.0.0.1:3100";

/** Ready Text's paid plan: $4.99 every 30 days, and 5 cents per text message up to $25.00 a period. */
export const READY_TEXT_PLAN = "text-pro";
export const TEXT_PRICE_CENTS = 5;

type Manifest = Record<string, unknown>;
type Spec = {
  webhookEvents: string[];
  /** the admin page's title and icon (every demo app has one, "dashboard", where the install lands) */
  admin: [title: string, iconName: string];
  /** the app's settings, as the properties of its settings schema */
  settings: Record<string, unknown>;
  /** the manifest's blocks, embeds and hooks */
  extensions?: (appUrl: string) => Manifest;
  pricing?: unknown[];
};

const ADMIN_PAGE_ID = "dashboard";
const objectSchema = (properties: Record<string, unknown>) => ({ type: "object", properties });

const SPECS: Record<DemoAppSlug, Spec> = {
  "loyalty-stars": {
    webhookEvents: ["order.created"],
    admin: ["Loyalty Stars", "star"],
    settings: {
      pointsPerUnit: { type: "integer", title: "Points per 1.00 spent", minimum: 1, maximum: 100 },
      rewardAt: { type: "integer", title: "Points for a reward", minimum: 10, maximum: 10000 },
      rewardText: { type: "string", title: "Reward", maxLength: 80 },
    },
    extensions: (u) => ({
      blocks: [
        {
          blockType: "stamp-card",
          name: "Stamp card",
          description: "A stamp card inviting shoppers to collect points",
          iconName: "star",
          category: "Loyalty",
          renderUrl: `${u}/block`,
          settingsSchema: objectSchema({
            title: { type: "string", title: "Title", maxLength: 80 },
            stamps: { type: "integer", title: "Stamps on the card", minimum: 4, maximum: 12 },
            color: { type: "string", format: "color", title: "Color" },
          }),
          defaultConfig: { title: "Collect a stamp with every order", stamps: 8, color: "#b45309" },
        },
      ],
      embeds: [
        {
          embedType: "points-badge",
          name: "Points badge",
          description: "A small badge on every storefront page",
          kind: "GLOBAL_SCRIPT",
          position: "body_end",
          scriptUrl: `${u}/embed.js`,
          settingsSchema: objectSchema({ text: { type: "string", title: "Badge text", maxLength: 40 } }),
          defaultConfig: { text: "Earn stars with every order" },
        },
      ],
    }),
  },
  "parcel-pilot": {
    webhookEvents: [],
    admin: ["Parcel Pilot", "truck"],
    settings: {
      baseFeeCents: { type: "integer", title: "Delivery fee (cents)", minimum: 0, maximum: 100000 },
      perItemCents: { type: "integer", title: "Per item (cents)", minimum: 0, maximum: 10000 },
      freeFromCents: { type: "integer", title: "Free delivery from (cents, 0: never)", minimum: 0 },
    },
    extensions: () => ({
      hooks: [{ hookPoint: "checkout.shipping_rates", url: "/hooks/shipping-rates", timeout: 3000, priority: 100 }],
    }),
  },
  "mailroom-campaigns": {
    webhookEvents: [],
    admin: ["Mailroom", "mail"],
    settings: {
      senderName: { type: "string", title: "Sender name", maxLength: 80 },
      prompt: { type: "string", title: "Sign-up prompt", maxLength: 120 },
    },
    extensions: (u) => ({
      embeds: [
        {
          embedType: "signup",
          name: "Newsletter sign-up",
          description: "A floating card where shoppers leave their e-mail for your news",
          kind: "FLOATING_WIDGET",
          position: "bottom_left",
          renderUrl: `${u}/widget`,
          settingsSchema: objectSchema({ prompt: { type: "string", title: "Prompt", maxLength: 120 } }),
          defaultConfig: { prompt: "New dishes and offers by e-mail?" },
        },
      ],
    }),
  },
  "sales-pulse": {
    webhookEvents: [],
    admin: ["Sales Pulse", "chart"],
    settings: { digestHour: { type: "integer", title: "Daily digest at (hour, 0-23)", minimum: 0, maximum: 23 } },
  },
  "counter-sync": {
    webhookEvents: [],
    admin: ["Counter Sync", "register"],
    settings: { tillName: { type: "string", title: "Till name", maxLength: 60 } },
  },
  "ready-text": {
    webhookEvents: ["order.status_changed"],
    admin: ["Ready Text", "message"],
    settings: {
      readyText: { type: "string", title: "When an order is ready", maxLength: 160 },
      deliveryText: { type: "string", title: "When an order is out for delivery", maxLength: 160 },
    },
    pricing: [
      {
        id: READY_TEXT_PLAN,
        name: "Text Pro",
        kind: "RECURRING",
        price: { amount: 499, currency: "USD" },
        interval: "EVERY_30_DAYS",
        usageCap: { amount: 2500, currency: "USD" },
        usageTerms: "5 cents per text message",
      },
    ],
  },
};

/** The app's own address on the demo apps server: one path prefix per app. */
export const demoAppUrl = (baseUrl: string, slug: DemoAppSlug) => `${baseUrl.replace(/\/$/, "")}/${slug}`;

/** What the app record holds about the demo app at `baseUrl`: its URLs, events, manifest and pricing. */
export function demoAppRecord(baseUrl: string, slug: DemoAppSlug) {
  const spec = SPECS[slug];
  const url = demoAppUrl(baseUrl, slug);
  return {
    redirectUrl: `${url}/oauth/callback`,
    webhookUrl: `${url}/webhooks`,
    webhookEvents: spec.webhookEvents,
    manifest: {
      settingsSchema: objectSchema(spec.settings),
      ...spec.extensions?.(url),
      adminPages: [{ pageId: ADMIN_PAGE_ID, title: spec.admin[0], iconName: spec.admin[1], renderUrl: `${url}/admin` }],
    },
    ...(spec.pricing ? { pricing: spec.pricing } : {}),
  };
}

/** The admin page the install lands on. */
export const demoAdminPageId = (_slug: DemoAppSlug) => ADMIN_PAGE_ID;
