/**
 * The App API's version changes (issue 32, decisions 041 and 046), declared once beside its
 * operations' schemas: each takes values of the version it introduced down to the version before,
 * and what an app sends up, by the name of the zod schema whose values change. The same walk
 * applies them to everything the platform shows an app: answers (by the operation's answer schema),
 * webhook payloads (by the event's `data` schema, events/schemas.ts), hook calls and the apps'
 * answers (by the hook point's schemas, hooks/schemas.ts), request bodies. Handlers, serializers,
 * events and hook calls build the newest shape only; the wrapper, the fan-out and the hook invoker
 * apply `VERSIONING` for the version of the app or request.
 * The sentences of each change are in the registry (`versions/registry.ts`) under the same anchor.
 *
 * To add a version: add it to the registry with its sentences, change the schemas and serializers
 * to the new shape, and declare here how the new shape of each named schema goes down to the
 * previous version (and up, for what apps send).
 */
import type { z } from "zod";
import { versioning, type VersionChange } from "./transform";
import { isMoney, moneyToMajor } from "../core/money";
import { EVENT_DATA } from "../shapes/events";
import { HOOK_CALLS } from "../shapes/hooks";
import type { EventName } from "../shapes/app-catalog";
import type { HookPoint } from "../shapes/manifest";

/** 2026-11-21's money: major units of the currency, as a JSON number. */
const MAJOR_NUMBER = { type: "number", description: "major units of the currency (6.5 for $6.50, 650 for ¥650)" };
const MINOR_INTEGER = { type: "integer", description: "integer minor units of the business's currency" };
const MINOR_NUMBER = { type: "number", minimum: 0, description: "minor units of the business's currency" };
const MINOR_STRING = { type: "string", description: "integer minor units of the business's currency, as a string" };

/** The currency of a hook call: that of its first money field (every money field of a call is in the order's currency). */
function callCurrency(call: unknown): string {
  if (call && typeof call === "object") for (const v of Object.values(call)) if (isMoney(v)) return v.currency;
  return "";
}

/** 2026-11-27: money as {amount, currency} in minor units, everywhere. */
export const moneyAsObjects: VersionChange = {
  version: "2026-11-27",
  anchor: "money-as-objects",
  schemas: {
    // every field of the schema `Money`, wherever it sits: answers (products, orders, their items,
    // the dashboard, billing), webhook payloads (orders, payments, products, app_subscription.updated)
    Money: { down: (v) => (isMoney(v) ? moneyToMajor(v) : v), document: () => MAJOR_NUMBER },
    // hook calls (hooks/schemas.ts): 2026-11-21 wrote money there as integers of minor units…
    HookMoney: { down: (v) => (isMoney(v) ? v.amount : v), document: () => MINOR_INTEGER },
    // …and create_payment's amount as a string of them
    PaymentAmount: { down: (v) => (isMoney(v) ? String(v.amount) : v), document: () => MINOR_STRING },
    // a hook's money answer: 2026-11-21 answers a number of minor units, in the order's currency; not
    // rounded here: the checkout rounds the amount as it rounded the number before
    HookMoneyAnswer: {
      down: (v) => (isMoney(v) ? v.amount : v),
      up: (v, call) => (typeof v === "number" ? { amount: v, currency: callCurrency(call) } : v),
      document: () => MINOR_NUMBER,
    },
  },
};

/** 2026-11-27: a delivery of the delivery log names the API version its body was rendered in. */
export const deliveryApiVersion: VersionChange = {
  version: "2026-11-27",
  anchor: "delivery-api-version",
  schemas: {
    Delivery: {
      down: ({ apiVersion: _v, ...rest }) => rest,
      document: (schema) => {
        const { apiVersion: _v, ...properties } = schema.properties;
        return { ...schema, properties, required: schema.required?.filter((k: string) => k !== "apiVersion") };
      },
    },
  },
};

/** 2026-11-27: every list answers nextCursor (contract 6, decision 067); 2026-11-21's lists do not carry it. */
const withoutNextCursor = {
  down: ({ nextCursor: _c, ...rest }: Record<string, unknown>) => rest,
  document: (schema: { properties: Record<string, unknown>; required?: string[] }) => {
    const { nextCursor: _c, ...properties } = schema.properties;
    return { ...schema, properties, required: schema.required?.filter((k: string) => k !== "nextCursor") };
  },
};
export const listCursors: VersionChange = {
  version: "2026-11-27",
  anchor: "list-cursors",
  schemas: Object.fromEntries(
    [
      "ProductList",
      "OrderList",
      "ReviewList",
      "PageList",
      "WebhookList",
      "DeliveryList",
      "BillingSubscriptionList",
    ].map((name) => [name, withoutNextCursor]),
  ),
};

/** 2026-11-27: a review carries the merchant's reply (contract 20, decision 060); 2026-11-21's reviews do not. */
export const reviewReplies: VersionChange = {
  version: "2026-11-27",
  anchor: "review-replies",
  schemas: {
    Review: {
      down: ({ reply: _r, ...rest }: Record<string, unknown>) => rest,
      document: (schema) => {
        const { reply: _r, ...properties } = schema.properties;
        return { ...schema, properties, required: schema.required?.filter((k: string) => k !== "reply") };
      },
    },
  },
};

/** Every version change of the App API, its webhooks and hook calls. */
export const VERSION_CHANGES: VersionChange[] = [moneyAsObjects, deliveryApiVersion, listCursors, reviewReplies];

const walk = versioning(VERSION_CHANGES);

/**
 * The version changes applied to each thing the platform shows an app, each by its declared schema
 * (one walk, `versions/transform.ts`).
 */
export const VERSIONING = {
  ...walk,
  /** An App API answer of `schema` (the operation's declared answer) in the newest shape -> in `target`. */
  answer: (schema: z.ZodType | undefined, value: unknown, target: string) => walk.down(schema, value, target),
  /** A request body of `schema` (the operation's declared body) sent in `target` -> the newest shape. */
  request: (schema: z.ZodType | undefined, body: unknown, target: string) => walk.up(schema, body, target),
  /** An event's data in the newest shape -> in `target` (by its schema in EVENT_DATA). */
  event: (type: string, data: unknown, target: string) => walk.down(EVENT_DATA[type as EventName]?.data, data, target),
  /** A hook call's data in the newest shape -> in `target` (by its schema in HOOK_CALLS). */
  hookCall: (point: string, data: unknown, target: string) =>
    walk.down(HOOK_CALLS[point as HookPoint]?.data, data, target),
  /** A hook's answer given in `target` -> the newest shape (`call`: the call's data in the newest shape). */
  hookAnswer: (point: string, answer: unknown, call: unknown, target: string) =>
    walk.up(HOOK_CALLS[point as HookPoint]?.answer, answer, target, call),
};
