/**
 * What each demo app does (decision 062), as its listing says: the view its admin page shows, the
 * actions its admin page offers, and its answers to webhooks and hook calls. Every read and write of
 * the shop goes through the App API with the installation's token, in API version 2026-11-27 (money
 * as `{amount, currency}` in minor units), as an outside app's would.
 */
import type { WebhookEnvelope, HookCallEnvelope } from "@storefront/app-sdk";
import { DEMO_API_PIN, READY_TEXT_PLAN, TEXT_PRICE_CENTS, type DemoAppSlug } from "./demo-apps";
import type { DemoAppStore, DemoInstall } from "./demo-app-store.server";

const DEMO_API_VERSION = DEMO_API_PIN;

export type AppContext = {
  slug: DemoAppSlug;
  store: DemoAppStore;
  platformUrl: string;
  appUrl: string;
  say: (line: string) => void;
};
type Cell = string | number | null | { action: string; args?: Record<string, unknown>; label: string };
export type View = {
  status: string;
  facts?: [string, string | number][];
  actions?: { action: string; label: string; args?: Record<string, unknown> }[];
  links?: { label: string; href: string }[];
  sections?: { title: string; columns: string[]; rows: Cell[][]; empty?: string }[];
};
type Behaviour = {
  view(ctx: AppContext, install: DemoInstall): Promise<View>;
  act(
    ctx: AppContext,
    install: DemoInstall,
    action: string,
    args: Record<string, unknown>,
  ): Promise<{ notice?: string; open?: string }>;
  onWebhook?(ctx: AppContext, install: DemoInstall, envelope: WebhookEnvelope<Record<string, unknown>>): Promise<void>;
  onHook?(
    ctx: AppContext,
    install: DemoInstall,
    name: string,
    call: HookCallEnvelope<Record<string, unknown>>,
  ): Promise<unknown>;
};

type Money = { amount: number; currency: string };
type Order = {
  id: string;
  orderNumber: string | number;
  status: string;
  amount: Money;
  deliveryMethod: string;
  customer: { name: string; phone: string; email: string | null };
  items: { productId: string; name: string; quantity: number }[];
  address: string | null;
  createdAt: string;
};

class AppApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** One App API call with the installation's token; an error answer throws with its status and message. */
async function api<T = any>(
  ctx: AppContext,
  install: DemoInstall,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const res = await fetch(ctx.platformUrl + path, {
    method,
    headers: {
      Authorization: `Bearer ${install.accessToken}`,
      "Api-Version": DEMO_API_VERSION,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new AppApiFailure(res.status, json?.message ?? `App API ${method} ${path}: ${res.status}`);
  return json as T;
}

const settingsOf = async (ctx: AppContext, install: DemoInstall) =>
  ((await api(ctx, install, "GET", "/app-api/installation")).settings ?? {}) as Record<string, unknown>;
const num = (v: unknown, fallback: number) => (typeof v === "number" && Number.isFinite(v) ? v : fallback);
const text = (v: unknown, fallback: string) => (typeof v === "string" && v.trim() ? v : fallback);

/** Money for people: the currency's own digits (minor units in, "$4.99" out). */
export function formatMoney(m: Money, locale = "en-US") {
  const f = new Intl.NumberFormat(locale, { style: "currency", currency: m.currency });
  return f.format(m.amount / 10 ** (f.resolvedOptions().maximumFractionDigits ?? 2));
}
const when = (iso: string) => new Date(iso).toISOString().slice(0, 16).replace("T", " ") + " UTC";
const list = <T>(data: Record<string, unknown>, key: string) => (Array.isArray(data[key]) ? (data[key] as T[]) : []);
const recentOrders = async (ctx: AppContext, install: DemoInstall, limit = 100) =>
  (await api<{ data: Order[] }>(ctx, install, "GET", `/app-api/orders?limit=${limit}`)).data;

// ---- Loyalty Stars: points for every order, a stamp card block and a points badge embed ----
const loyaltyStars: Behaviour = {
  async view(ctx, install) {
    const [settings, orders] = await Promise.all([settingsOf(ctx, install), recentOrders(ctx, install)]);
    const perUnit = num(settings.pointsPerUnit, 10);
    const rewardAt = num(settings.rewardAt, 500);
    const members = new Map<string, { name: string; orders: number; points: number }>();
    for (const o of orders) {
      if (o.status === "CANCELLED") continue;
      const key = (o.customer.email ?? o.customer.phone ?? o.customer.name).toLowerCase();
      const m = members.get(key) ?? { name: o.customer.name, orders: 0, points: 0 };
      m.orders++;
      m.points += Math.floor((o.amount.amount / 100) * perUnit);
      members.set(key, m);
    }
    const top = [...members.values()].sort((a, b) => b.points - a.points).slice(0, 10);
    return {
      status: `Stars for ${members.size} customers, from their last ${orders.length} orders.`,
      facts: [
        ["Stars per 1.00 spent", perUnit],
        ["Reward at", `${rewardAt} stars: ${text(settings.rewardText, "a free dessert")}`],
        ["Stars issued", top.reduce((s, m) => s + m.points, 0)],
        ["On the storefront", "the Stamp card block (Site pages) and the Points badge embed"],
      ],
      sections: [
        {
          title: "Top members",
          columns: ["Customer", "Orders", "Stars", "Reward"],
          rows: top.map((m) => [
            m.name,
            m.orders,
            m.points,
            m.points >= rewardAt ? "Ready" : `${rewardAt - m.points} to go`,
          ]),
          empty: "No orders yet: stars come with the first one.",
        },
        {
          title: "Stars awarded since install",
          columns: ["When", "Order", "Customer", "Stars"],
          rows: list<any>(install.data, "awards").map((a) => [when(a.at), `#${a.orderNumber}`, a.customer, a.points]),
          empty: "Each new order awards stars here (order.created webhook).",
        },
      ],
    };
  },
  async act() {
    return { notice: "Nothing to do here: stars are awarded by themselves." };
  },
  async onWebhook(ctx, install, envelope) {
    if (envelope.event !== "order.created") return;
    const order = envelope.data as unknown as Order;
    const settings = await settingsOf(ctx, install);
    const points = Math.floor((order.amount.amount / 100) * num(settings.pointsPerUnit, 10));
    const entry = {
      at: new Date().toISOString(),
      orderId: order.id,
      orderNumber: order.orderNumber,
      customer: order.customer.name,
      points,
    };
    await ctx.store.append(install.businessId, "awards", entry, envelope.id);
  },
};

// ---- Parcel Pilot: the delivery fee at checkout (checkout.shipping_rates), labels for couriers ----
const parcelPilot: Behaviour = {
  async view(ctx, install) {
    const [settings, orders] = await Promise.all([settingsOf(ctx, install), recentOrders(ctx, install, 50)]);
    const currency = orders[0]?.amount.currency ?? "USD";
    const m = (amount: number) => formatMoney({ amount, currency });
    const free = num(settings.freeFromCents, 4000);
    const open = orders.filter(
      (o) => o.deliveryMethod === "DELIVERY" && !["DELIVERED", "CANCELLED"].includes(o.status),
    );
    return {
      status: "Parcel Pilot sets the delivery fee of every checkout on your storefront.",
      facts: [
        [
          "Delivery fee",
          settings.baseFeeCents === undefined ? "the platform's own fee" : m(num(settings.baseFeeCents, 0)),
        ],
        ["Per item", m(num(settings.perItemCents, 50))],
        ["Free delivery from", free > 0 ? m(free) : "never"],
        ["Pickup", "free"],
      ],
      sections: [
        {
          title: "Labels to print",
          columns: ["Order", "Customer", "Phone", "Address", "Items"],
          rows: open.map((o) => [
            `#${o.orderNumber}`,
            o.customer.name,
            o.customer.phone,
            o.address ?? "",
            o.items.reduce((s, i) => s + i.quantity, 0),
          ]),
          empty: "No delivery orders waiting.",
        },
        {
          title: "Latest fees quoted at checkout",
          columns: ["When", "Method", "Subtotal", "Fee"],
          rows: list<any>(install.data, "quotes").map((q) => [when(q.at), q.method, q.subtotal, q.fee]),
          empty: "Each checkout asks Parcel Pilot for its fee; they show here.",
        },
      ],
    };
  },
  async act() {
    return { notice: "Change the fees in the app's settings (Apps → Parcel Pilot)." };
  },
  async onHook(ctx, install, name, call) {
    if (name !== "shipping-rates") return undefined;
    const data = call.data as {
      deliveryMethod: string;
      items?: { quantity: number }[];
      subtotal: Money;
      builtInFee: Money;
    };
    const settings = await settingsOf(ctx, install);
    const items = (data.items ?? []).reduce((s, i) => s + i.quantity, 0);
    const free = num(settings.freeFromCents, 4000);
    let fee = 0;
    if (data.deliveryMethod === "DELIVERY" && !(free > 0 && data.subtotal.amount >= free))
      fee = num(settings.baseFeeCents, data.builtInFee.amount) + items * num(settings.perItemCents, 50);
    const answer = { fee: { amount: fee, currency: data.subtotal.currency } };
    await ctx.store.append(install.businessId, "quotes", {
      at: new Date().toISOString(),
      method: data.deliveryMethod,
      subtotal: formatMoney(data.subtotal),
      fee: formatMoney(answer.fee),
    });
    return answer;
  },
};

// ---- Mailroom Campaigns: a sign-up widget on the storefront, campaigns drafted from new dishes ----
const mailroom: Behaviour = {
  async view(ctx, install) {
    const [settings, orders] = await Promise.all([settingsOf(ctx, install), recentOrders(ctx, install)]);
    const customers = new Set(orders.map((o) => o.customer.email).filter(Boolean));
    const subscribers = list<any>(install.data, "subscribers");
    return {
      status: "Write to your customers about new dishes and offers.",
      facts: [
        ["Sender", text(settings.senderName, "your shop's name")],
        ["Customers with an e-mail", customers.size],
        ["Signed up on the storefront", subscribers.length],
      ],
      actions: [{ action: "draft", label: "Draft a campaign of the newest dishes" }],
      sections: [
        {
          title: "Campaigns",
          columns: ["When", "Subject", "Recipients"],
          rows: list<any>(install.data, "campaigns").map((c) => [when(c.at), c.subject, c.recipients]),
          empty: "No campaign yet.",
        },
        {
          title: "Sign-ups from the storefront widget",
          columns: ["When", "E-mail"],
          rows: subscribers.map((s) => [when(s.at), s.email]),
          empty: "Turn on the Newsletter sign-up embed (Apps → Mailroom Campaigns) to collect sign-ups.",
        },
      ],
    };
  },
  async act(ctx, install, action) {
    if (action !== "draft") return { notice: "Unknown action." };
    const [products, orders, business] = await Promise.all([
      api<{ data: { name: string }[] }>(ctx, install, "GET", "/app-api/products?limit=3"),
      recentOrders(ctx, install),
      api<{ name: string }>(ctx, install, "GET", "/app-api/business"),
    ]);
    const recipients = new Set([
      ...orders.map((o) => o.customer.email).filter((e): e is string => !!e),
      ...list<any>(install.data, "subscribers").map((s) => s.email as string),
    ]);
    const subject = `New at ${business.name}: ${products.data.map((p) => p.name).join(", ") || "our menu"}`;
    await ctx.store.append(install.businessId, "campaigns", {
      at: new Date().toISOString(),
      subject,
      recipients: recipients.size,
    });
    return { notice: `Campaign drafted for ${recipients.size} recipients (the demo sends no e-mail).` };
  },
};

// ---- Sales Pulse: which dishes sell, and when ----
const salesPulse: Behaviour = {
  async view(ctx, install) {
    const [settings, d] = await Promise.all([
      settingsOf(ctx, install),
      api<any>(ctx, install, "GET", "/app-api/analytics/dashboard"),
    ]);
    return {
      status: "Your shop's pulse, from the platform's figures.",
      facts: [
        ["Orders today", `${d.today.orders} (${formatMoney(d.today.revenue)})`],
        ["Orders in the last 30 days", `${d.last30Days.orders} (${formatMoney(d.last30Days.revenue)})`],
        ["Average order", formatMoney(d.averageOrderValue)],
        ["Daily digest", `at ${String(num(settings.digestHour, 8)).padStart(2, "0")}:00`],
      ],
      sections: [
        {
          title: "Best sellers",
          columns: ["Dish", "Sold", "Revenue"],
          rows: (d.topProducts as any[]).map((p) => [p.name, p.quantity, formatMoney(p.revenue)]),
          empty: "No sales yet.",
        },
        {
          title: "Orders by status",
          columns: ["Status", "Orders"],
          rows: Object.entries(d.ordersByStatus as Record<string, number>).map(([s, n]) => [s, n]),
        },
      ],
    };
  },
  async act() {
    return { notice: "Sales Pulse only reads: nothing to do." };
  },
};

// ---- Counter Sync: the till and the online menu in step; new orders accepted at the till ----
const counterSync: Behaviour = {
  async view(ctx, install) {
    const [settings, products, orders] = await Promise.all([
      settingsOf(ctx, install),
      api<{ data: any[]; total: number }>(ctx, install, "GET", "/app-api/products?limit=20"),
      recentOrders(ctx, install),
    ]);
    const pending = orders.filter((o) => o.status === "PENDING");
    return {
      status: `Synced with the till "${text(settings.tillName, "Front counter")}".`,
      facts: [
        ["Dishes on the menu", products.total],
        ["New orders waiting for the till", pending.length],
      ],
      sections: [
        {
          title: "New orders",
          columns: ["Order", "Customer", "Amount", ""],
          rows: pending.map((o) => [
            `#${o.orderNumber}`,
            o.customer.name,
            formatMoney(o.amount),
            { action: "accept", args: { orderId: o.id }, label: "Accept at the till" },
          ]),
          empty: "No new orders.",
        },
        {
          title: "Menu at the till",
          columns: ["Dish", "Price", "Stock", "Status"],
          rows: products.data.map((p) => [p.name, formatMoney(p.price), p.stock ?? "untracked", p.status]),
        },
      ],
    };
  },
  async act(ctx, install, action, args) {
    if (action !== "accept" || typeof args.orderId !== "string") return { notice: "Unknown action." };
    const order = await api<Order>(
      ctx,
      install,
      "PATCH",
      `/app-api/orders/${encodeURIComponent(args.orderId)}/status`,
      {
        status: "CONFIRMED",
      },
    );
    await ctx.store.append(install.businessId, "accepted", {
      at: new Date().toISOString(),
      orderNumber: order.orderNumber,
    });
    return { notice: `Order #${order.orderNumber} accepted at the till (now ${order.status}).` };
  },
};

// ---- Ready Text: a text when an order is ready or out for delivery, paid per text ----
type Subscription = {
  id: string;
  status: string;
  planId: string;
  usageBalance?: Money | null;
  usageCap?: Money | null;
  currentPeriodEnd?: string | null;
};
const activePlan = async (ctx: AppContext, install: DemoInstall) =>
  (await api<{ data: Subscription[] }>(ctx, install, "GET", "/app-api/billing/subscriptions?limit=20")).data.find(
    (s) => s.status === "ACTIVE" && s.planId === READY_TEXT_PLAN,
  ) ?? null;

export function readyTextMessage(
  settings: Record<string, unknown>,
  status: string,
  name: string,
  orderNumber: string | number,
) {
  const template =
    status === "READY"
      ? text(settings.readyText, "Hi {name}, your order #{order} is ready!")
      : text(settings.deliveryText, "Hi {name}, your order #{order} is on its way.");
  return template.replaceAll("{name}", name).replaceAll("{order}", String(orderNumber));
}

const readyText: Behaviour = {
  async view(ctx, install) {
    const plan = await activePlan(ctx, install);
    const texts = list<any>(install.data, "texts");
    return {
      status: plan
        ? "Customers get a text when their order is ready or out for delivery."
        : "Choose the Text Pro plan to start sending texts.",
      facts: plan
        ? [
            ["Plan", "Text Pro: $4.99 every 30 days + 5 cents per text"],
            ["Usage this period", `${formatMoney(plan.usageBalance!)} of ${formatMoney(plan.usageCap!)}`],
            ["Period ends", plan.currentPeriodEnd ? when(plan.currentPeriodEnd) : ""],
            ["Texts sent", texts.length],
          ]
        : [["Plan", "none"]],
      actions: plan ? [] : [{ action: "subscribe", label: "Choose Text Pro ($4.99 / 30 days)" }],
      sections: [
        {
          title: "Texts sent",
          columns: ["When", "Order", "To", "Message", "Charged"],
          rows: texts.map((t) => [when(t.at), `#${t.orderNumber}`, t.to, t.message, t.charged]),
          empty: "A text goes out when an order moves to Ready or In delivery.",
        },
      ],
    };
  },
  async act(ctx, install, action) {
    if (action !== "subscribe") return { notice: "Unknown action." };
    const sub = await api<{ confirmationUrl: string }>(ctx, install, "POST", "/app-api/billing/subscriptions", {
      planId: READY_TEXT_PLAN,
      returnUrl: `${ctx.appUrl}/billing/done`,
    });
    return { open: sub.confirmationUrl, notice: "Approve the plan in the tab that opened, then reload this page." };
  },
  async onWebhook(ctx, install, envelope) {
    if (envelope.event !== "order.status_changed") return;
    const data = envelope.data as { orderId: string; orderNumber: string | number; status: string };
    if (data.status !== "READY" && data.status !== "IN_DELIVERY") return;
    if (list<string>(install.data, "seen").includes(envelope.id)) return;
    const [order, settings, plan] = await Promise.all([
      api<Order>(ctx, install, "GET", `/app-api/orders/${encodeURIComponent(data.orderId)}`),
      settingsOf(ctx, install),
      activePlan(ctx, install),
    ]);
    const message = readyTextMessage(settings, data.status, order.customer.name, order.orderNumber);
    let charged = "no plan: not sent";
    if (plan) {
      // one text, one usage record; the delivery's id makes a redelivery charge nothing twice
      const usage = await api(
        ctx,
        install,
        "POST",
        `/app-api/billing/subscriptions/${plan.id}/usage`,
        { description: `Text for order #${order.orderNumber}`, amount: { amount: TEXT_PRICE_CENTS, currency: "USD" } },
        { "Idempotency-Key": envelope.id },
      ).then(
        () => formatMoney({ amount: TEXT_PRICE_CENTS, currency: "USD" }),
        (e: AppApiFailure) => (e.status === 409 ? "cap reached: not sent" : Promise.reject(e)),
      );
      charged = usage;
    }
    await ctx.store.append(
      install.businessId,
      "texts",
      {
        at: new Date().toISOString(),
        orderId: order.id,
        orderNumber: order.orderNumber,
        to: order.customer.phone,
        message,
        charged,
      },
      envelope.id,
    );
    ctx.say(`text for order #${order.orderNumber}: ${charged}`);
  },
};

export const BEHAVIOURS: Record<DemoAppSlug, Behaviour> = {
  "loyalty-stars": loyaltyStars,
  "parcel-pilot": parcelPilot,
  "mailroom-campaigns": mailroom,
  "sales-pulse": salesPulse,
  "counter-sync": counterSync,
  "ready-text": readyText,
};
