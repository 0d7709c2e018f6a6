/**
 * The scopes, app categories and events of the platform, with the plain words shown to merchants
 * and reviewers. Shared by server and browser code.
 */
export const SCOPES = {
  read_products: "See your products",
  read_orders: "See your orders and payments",
  write_orders: "Create orders and change their status",
  read_reviews: "See your product reviews",
  read_analytics: "See your sales figures",
  read_business: "See your business details (name, address, contact)",
  read_pages: "See your site pages",
  write_payments: "Offer payment methods at checkout and take payments",
  write_shipping: "Set delivery fees at checkout",
  write_checkout: "Validate orders and apply discounts at checkout",
} as const;

export type Scope = keyof typeof SCOPES;
export const SCOPE_NAMES = Object.keys(SCOPES) as Scope[];

export const CATEGORIES = [
  "analytics",
  "marketing",
  "sales",
  "shipping",
  "pos",
  "communication",
  "automation",
  "loyalty",
  "other",
] as const;
export type Category = (typeof CATEGORIES)[number];

export const CATEGORY_LABELS: Record<Category, string> = {
  analytics: "Analytics",
  marketing: "Marketing",
  sales: "Sales",
  shipping: "Shipping",
  pos: "Point of sale",
  communication: "Communication",
  automation: "Automation",
  loyalty: "Loyalty",
  other: "Other",
};

/** Each event and the scope an installation needs to receive it (null: no scope needed). */
export const EVENTS = {
  "order.created": "read_orders",
  "order.status_changed": "read_orders",
  "order.delivered": "read_orders",
  "order.cancelled": "read_orders",
  "payment.completed": "read_orders",
  "payment.expired": "read_orders",
  "product.created": "read_products",
  "product.updated": "read_products",
  "product.deleted": "read_products",
  "product.out_of_stock": "read_products",
  "product.low_stock": "read_products",
  "product.back_in_stock": "read_products",
  "review.created": "read_reviews",
  "review.deleted": "read_reviews",
  "business.data_erasure": null,
  "app.uninstalled": null,
  "customer.data_request": null,
  "customer.redact": null,
  // billing (contract 13): to the app's webhook URL on every status change and at 90% of a cap
  "app_subscription.updated": null,
  "webhook.test": null,
} as const satisfies Record<string, Scope | null>;

export type EventName = keyof typeof EVENTS;
export const EVENT_NAMES = Object.keys(EVENTS) as EventName[];

/**
 * A shopper's privacy requests (contract 15): sent without registration to the install registration of
 * every active installation holding one of COMPLIANCE_SCOPES, never to others.
 */
export const COMPLIANCE_EVENTS = ["customer.data_request", "customer.redact"] as const;
export type ComplianceEvent = (typeof COMPLIANCE_EVENTS)[number];
export const COMPLIANCE_SCOPES: readonly Scope[] = ["read_orders", "read_reviews"];

/**
 * Events the platform sends by itself to an installation's install registration, whatever its
 * `events` say and even when uninstall deactivated it (decisions 035, 040, 043): the erasure,
 * app.uninstalled, a shopper's privacy requests and billing changes.
 */
export const MANDATORY_EVENTS: readonly string[] = [
  "business.data_erasure",
  "app.uninstalled",
  ...COMPLIANCE_EVENTS,
  "app_subscription.updated",
];
/**
 * Events no registration subscribes to (decision 035): webhook.test goes to the registration being
 * tested, the mandatory ones to the install registration. POST /webhooks and the app's webhookEvents
 * refuse them (400).
 */
export const DIRECT_EVENTS: readonly string[] = ["webhook.test", ...MANDATORY_EVENTS];
/** The events a registration may subscribe to; a change of the platform fans each out to its subscribers. */
export const SUBSCRIBABLE_EVENTS = EVENT_NAMES.filter((e) => !DIRECT_EVENTS.includes(e));
export const isSubscribable = (event: string) => (SUBSCRIBABLE_EVENTS as readonly string[]).includes(event);

/** Review criteria of the spec, shown to reviewers as a checklist. */
export const REVIEW_CRITERIA = [
  {
    key: "functionality",
    label: "Functionality",
    hint: "The app installs, its pages load, and it does what the listing says.",
  },
  {
    key: "security",
    label: "Security",
    hint: "Webhook signatures are verified; tokens and secrets are kept server-side.",
  },
  { key: "scopes", label: "Scope appropriateness", hint: "Every requested scope is needed for a described feature." },
  { key: "quality", label: "Quality", hint: "Clear description, icon and screenshots." },
  {
    key: "policy",
    label: "Policy compliance",
    hint: "Handles business.data_erasure, customer.data_request and customer.redact (answers 2xx, honours them within 30 days); no prohibited content.",
  },
] as const;

export type ReviewCriterion = (typeof REVIEW_CRITERIA)[number]["key"];
/** Every criterion's key: what an approval must name (`POST /review/apps/<id>/approve {criteria}`). */
export const REVIEW_CRITERIA_KEYS = REVIEW_CRITERIA.map((c) => c.key) as [ReviewCriterion, ...ReviewCriterion[]];

/** Whether an installation with these scopes may receive the event. */
export function eventAllowed(event: string, scopes: readonly string[]): boolean {
  if (!(event in EVENTS)) return false;
  if ((COMPLIANCE_EVENTS as readonly string[]).includes(event))
    return COMPLIANCE_SCOPES.some((s) => scopes.includes(s));
  const scope = EVENTS[event as EventName];
  return scope === null || scopes.includes(scope);
}
