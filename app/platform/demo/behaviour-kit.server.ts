/**
 * What every demo app's behaviour (demo-app-behaviour.server.ts) is made of: the context it runs
 * in, the view its admin page shows, and the App API call with the installation's token, in API
 * version 2026-11-27 (money as `{amount, currency}` in minor units), as an outside app's would.
 */
import type { WebhookEnvelope, HookCallEnvelope } from "@storefront/app-sdk";
import { DEMO_API_PIN, type DemoAppSlug } from "./demo-apps";
import type { DemoAppStore, DemoInstall } from "./demo-app-store.server";

const DEMO_API_VERSION = DEMO_API_PIN;

export type AppContext = {
  slug: DemoAppSlug;
  store: DemoAppStore;
  platformUrl: string;
  appUrl: string;
  say: (line: string) => void;
};
export type Cell = string | number | null | { action: string; args?: Record<string, unknown>; label: string };
export type View = {
  status: string;
  facts?: [string, string | number][];
  actions?: { action: string; label: string; args?: Record<string, unknown> }[];
  links?: { label: string; href: string }[];
  sections?: { title: string; columns: string[]; rows: Cell[][]; empty?: string }[];
};
export type Behaviour = {
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

export type Money = { amount: number; currency: string };
export type Order = {
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

export class AppApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** One App API call with the installation's token; an error answer throws with its status and message. */
export async function api<T = any>(
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

export const settingsOf = async (ctx: AppContext, install: DemoInstall) =>
  ((await api(ctx, install, "GET", "/app-api/installation")).settings ?? {}) as Record<string, unknown>;
export const num = (v: unknown, fallback: number) => (typeof v === "number" && Number.isFinite(v) ? v : fallback);
export const text = (v: unknown, fallback: string) => (typeof v === "string" && v.trim() ? v : fallback);

/** Money for people: the currency's own digits (minor units in, "$4.99" out). */
export function formatMoney(m: Money, locale = "en-US") {
  const f = new Intl.NumberFormat(locale, { style: "currency", currency: m.currency });
  return f.format(m.amount / 10 ** (f.resolvedOptions().maximumFractionDigits ?? 2));
}
export const when = (iso: string) => new Date(iso).toISOString().slice(0, 16).replace("T", " ") + " UTC";
export const list = <T>(data: Record<string, unknown>, key: string) =>
  Array.isArray(data[key]) ? (data[key] as T[]) : [];
export const recentOrders = async (ctx: AppContext, install: DemoInstall, limit = 100) =>
  (await api<{ data: Order[] }>(ctx, install, "GET", `/app-api/orders?limit=${limit}`)).data;
