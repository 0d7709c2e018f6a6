/**
 * The App API's version changes (issue 32, decision 041), declared once beside its operations'
 * schemas: each takes values of the version it introduced down to the version before (answers by
 * their schema's name, webhook payloads by event type, hook calls by hook point) and what an app
 * sends up. Handlers, serializers, events and hook calls build the newest shape only; the wrapper,
 * the fan-out and the hook invoker apply `VERSIONING` for the version of the app or request.
 * The sentences of each change are in the registry (`versions/registry.ts`) under the same anchor.
 *
 * To add a version: add it to the registry with its sentences, change the schemas and serializers
 * to the new shape, and declare here how the new shape goes down to the previous version.
 */
import { fieldsChange, versioning, type HookChange, type ValueChange, type VersionChange } from "../versions/transform";
import { isMoney, moneyToMajor, type Money } from "../core/money";

/** 2026-11-21's money: major units of the currency, as a JSON number. */
const MAJOR_NUMBER = { type: "number", description: "major units of the currency (6.5 for $6.50, 650 for ¥650)" };
const MINOR_INTEGER = { type: "integer", description: "integer minor units of the business's currency" };
const MINOR_NUMBER = { type: "number", minimum: 0, description: "minor units of the business's currency" };
const MINOR_STRING = { type: "string", description: "integer minor units of the business's currency, as a string" };
const toMajorNumber = (v: unknown) => (isMoney(v) ? moneyToMajor(v) : v);
/** Money fields of a webhook payload. */
const moneyFields = (...paths: string[]): ValueChange => fieldsChange(paths, toMajorNumber, () => MAJOR_NUMBER);
/** Money fields of a hook call, which 2026-11-21 sends as integers of minor units. */
const minorFields = (...paths: string[]) =>
  fieldsChange(
    paths,
    (v) => (isMoney(v) ? v.amount : v),
    () => ({ type: "integer" }),
  ).down;
/** A hook answer's money field: 2026-11-21 answers a number of minor units, in the order's currency. */
const answeredMinor =
  (field: string) =>
  (answer: any, call: any): any => {
    if (!answer || typeof answer !== "object" || typeof answer[field] !== "number") return answer;
    const currency = (call.subtotal as Money | undefined)?.currency ?? "";
    // not rounded here: the checkout rounds the amount as it rounded the number before
    return { ...answer, [field]: { amount: answer[field], currency } };
  };

const productChange = moneyFields("price");
const hookMoney: Record<string, HookChange> = {
  "order.validate": { callDown: minorFields("subtotal"), answerUp: (a) => a },
  "checkout.shipping_rates": {
    callDown: minorFields("subtotal", "builtInFee"),
    answerUp: answeredMinor("fee"),
  },
  "order.calculate_discounts": {
    callDown: minorFields("subtotal", "promoDiscount", "deliveryFee"),
    answerUp: answeredMinor("discount"),
  },
  "checkout.create_payment": {
    // 2026-11-21 sent the amount as a string of minor units
    callDown: fieldsChange(
      ["amount"],
      (v) => (isMoney(v) ? String(v.amount) : v),
      () => ({ type: "string" }),
    ).down,
    answerUp: (a) => a,
  },
};

/** 2026-11-27: money as {amount, currency} in minor units, everywhere. */
export const moneyAsObjects: VersionChange = {
  version: "2026-11-27",
  anchor: "money-as-objects",
  // every answer field of the schema `Money` (products, orders, their items, the dashboard), wherever it sits
  schemas: {
    Money: { down: toMajorNumber, document: () => MAJOR_NUMBER },
    // hook calls and answers (hooks/schemas.ts; their values are changed by `hooks` below): 2026-11-21
    // wrote money there as integers of minor units, and create_payment's amount as a string of them
    HookMoney: { down: (v) => v, document: () => MINOR_INTEGER },
    HookMoneyAnswer: { down: (v) => v, document: () => MINOR_NUMBER },
    PaymentAmount: { down: (v) => v, document: () => MINOR_STRING },
  },
  events: {
    "order.created": moneyFields("amount", "deliveryFee"),
    "payment.completed": moneyFields("amount"),
    "payment.expired": moneyFields("amount"),
    "product.created": productChange,
    "product.updated": productChange,
  },
  hooks: hookMoney,
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

/** Every version change of the App API, its webhooks and hook calls. */
export const VERSION_CHANGES: VersionChange[] = [moneyAsObjects, deliveryApiVersion];
export const VERSIONING = versioning(VERSION_CHANGES);
