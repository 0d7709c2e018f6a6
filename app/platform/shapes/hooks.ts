/**
 * Every hook point's call and answer, declared once (issue 31, decision 035): what the platform
 * sends in `data` (spec "Hook calls"; money in integer minor units), and the answer it accepts
 * (anything else is skipped, fail-open). The checkout's bindings build the calls typed by these
 * (`HookData`), the invoker checks answers with them (`HOOK_CALLS[point].answer`), the App API
 * document's `webhooks` section is made from them, and the test receivers check every call the
 * suite makes against them. No server code.
 */
import { z } from "zod";
import type { HookPoint } from "./manifest";

const url = z.string().max(2000);
/**
 * Money in a hook call or answer, in the newest API version: `{amount, currency}` in integer minor
 * units (contract 12). Named apart from the App API's `Money` because 2026-11-21 wrote it otherwise
 * here (integers of minor units, a string for create_payment's amount), which the version changes
 * declare by these names (app-api/version-changes.ts).
 */
export const HookMoney = z
  .object({
    amount: z.number().int().describe("integer minor units: 650 is $6.50 in USD, ¥650 in JPY"),
    currency: z.string().describe("ISO 4217 code"),
  })
  .meta({ id: "HookMoney" });
/** create_payment's amount (a schema of its own: 2026-11-21 wrote it as a string of minor units). */
export const PaymentAmount = z
  .object({
    amount: z.number().int().describe("integer minor units: 650 is $6.50 in USD, ¥650 in JPY"),
    currency: z.string().describe("ISO 4217 code"),
  })
  .meta({ id: "PaymentAmount" });
/** A money answer: minor units (rounded by the checkout) in the order's currency. */
export const HookMoneyAnswer = z
  .object({ amount: z.number().finite().min(0).max(100_000_000), currency: z.string() })
  .meta({ id: "HookMoneyAnswer" });
const minor = (what: string) => HookMoney.describe(what);
const Items = z
  .array(z.object({ productId: z.string(), quantity: z.number().int().min(1) }))
  .describe("the cart's lines");
const DeliveryMethod = z.enum(["DELIVERY", "PICKUP"]);

type Entry = { summary: string; data: z.ZodObject; answer: z.ZodObject };

export const HOOK_CALLS = {
  "checkout.payment_methods": {
    summary:
      "The checkout lists payment methods: offer yours. Every app's methods are shown; the platform prefixes ids with your app's slug, and your app sees its own id back in checkout.create_payment",
    data: z.object({ businessId: z.string() }).meta({ id: "PaymentMethodsHookData" }),
    answer: z
      .object({
        methods: z
          .array(
            z.object({
              id: z.string().min(1).max(100),
              name: z.string().min(1).max(100),
              description: z.string().max(500).optional(),
              icon: url.optional().describe("an image URL"),
            }),
          )
          .max(20),
      })
      .meta({ id: "PaymentMethodsHookAnswer" }),
  },
  "checkout.create_payment": {
    summary:
      "The shopper chose one of your methods and the order is placed (PENDING): start the payment. Only the app that offered the method is called; a failure cancels the order",
    data: z
      .object({
        orderId: z.string(),
        amount: PaymentAmount,
        currency: z.string(),
        paymentMethodId: z.string().describe("your own method id, as you offered it"),
        businessId: z.string(),
        description: z.string(),
      })
      .meta({ id: "CreatePaymentHookData" }),
    answer: z
      .object({
        paymentUrl: url.optional(),
        qrCode: z.string().max(4000).optional(),
        invoiceId: z.string().max(200).optional(),
        expiresAt: z.string().datetime({ offset: true }).optional().describe("ISO 8601; the payment expires then"),
      })
      .meta({ id: "CreatePaymentHookAnswer" }),
  },
  "checkout.shipping_rates": {
    summary: "Set the delivery fee (DELIVERY and PICKUP alike). The first app that answers wins; else builtInFee",
    data: z
      .object({
        deliveryMethod: DeliveryMethod,
        locality: z.string().optional().describe("the shopper's address, when given"),
        subtotal: minor("the cart's subtotal"),
        builtInFee: minor("the platform's own fee"),
      })
      .meta({ id: "ShippingRatesHookData" }),
    answer: z.object({ fee: HookMoneyAnswer.describe("the delivery fee") }).meta({ id: "ShippingRatesHookAnswer" }),
  },
  "order.validate": {
    summary: "Accept or refuse the order before it is placed; any refusal stops the checkout and shows the reason",
    data: z
      .object({ items: Items, subtotal: minor("the cart's subtotal"), deliveryMethod: DeliveryMethod })
      .meta({ id: "ValidateHookData" }),
    answer: z
      .object({
        valid: z.boolean(),
        reason: z.string().max(500).optional().describe("shown to the shopper when valid is false"),
      })
      .meta({ id: "ValidateHookAnswer" }),
  },
  "order.calculate_discounts": {
    summary: "Give a discount: every app's discounts add up, capped at the subtotal; the reasons are shown",
    data: z
      .object({
        items: Items,
        subtotal: minor("the cart's subtotal"),
        promoDiscount: minor("discount already applied"),
        deliveryFee: minor("the delivery fee"),
      })
      .meta({ id: "DiscountsHookData" }),
    answer: z
      .object({
        discount: HookMoneyAnswer.describe("the discount"),
        reason: z.string().max(500).optional().describe("shown to the shopper"),
      })
      .meta({ id: "DiscountsHookAnswer" }),
  },
} as const satisfies Record<HookPoint, Entry>;

/** What the platform sends a hook point in `data`. */
export type HookData<P extends HookPoint> = z.input<(typeof HOOK_CALLS)[P]["data"]>;
/** An answer the platform accepts from a hook point. */
export type HookAnswer<P extends HookPoint> = z.output<(typeof HOOK_CALLS)[P]["answer"]>;

const pascal = (name: string) =>
  name
    .split(/[._]/)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("");

/** The body of each hook call (spec "Hook calls": the envelope with the point's data). Named `<Point>HookCall`. */
export const HOOK_ENVELOPES = Object.fromEntries(
  Object.entries(HOOK_CALLS).map(([point, entry]) => [
    point,
    z
      .object({
        hookPoint: z.literal(point),
        businessId: z.string(),
        timestamp: z.string().describe("ISO 8601 timestamp of the call"),
        apiVersion: z.string().describe("the API version the call is written in (the app's pinned one)"),
        data: entry.data,
      })
      .meta({ id: `${pascal(point)}HookCall`, description: entry.summary }),
  ]),
) as unknown as Record<HookPoint, z.ZodObject>;

/** The headers of every hook call (contract 8). */
export const HOOK_HEADERS = [
  {
    name: "X-Webhook-Signature",
    description:
      "sha256=<hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`>, with the installation's webhook secret",
  },
  { name: "X-Webhook-Timestamp", description: "Unix time in seconds of the call" },
  { name: "X-Hook-Point", description: "The hook point (the body's hookPoint)" },
  { name: "Api-Version", description: "The API version the call is written in (the app's pinned one)" },
  { name: "User-Agent", description: "Service-Webhooks/1.0" },
] as const;
