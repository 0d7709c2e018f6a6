/**
 * Every event's payload, declared once (issue 31, decision 035). One entry per event of the
 * catalogue (`shapes/app-catalog.ts` EVENTS holds its scope; the type below makes the two lists agree):
 * what `data` holds and a sentence for the reader. The same schemas type what the platform's code
 * emits (`emitEvent` takes `EventInput`, so a builder that writes another field does not compile),
 * make the App API document's `webhooks` section (app-api/openapi.server.ts), and check every
 * delivery the test suite produces (testing/receiver.ts). No server code: the SDK's generator and
 * tests read it too.
 *
 * To add an event: its scope in EVENTS, its entry here. The envelope, the document, the SDK's types
 * and the receivers' check follow.
 */
import { z } from "zod";
import type { EventName } from "./app-catalog";
import { isoDate, Money, OrderStatus, Product, Review } from "./api";

const orderRef = { orderId: z.string(), orderNumber: z.string() };
const OrderRef = z.object(orderRef).meta({ id: "OrderRefData" });
const Payment = z
  .object({
    orderId: z.string(),
    invoiceId: z.string().nullable().describe("the invoiceId the payment app gave at checkout.create_payment"),
    amount: Money.describe("the order's amount"),
  })
  .meta({ id: "PaymentData" });
const Stock = z
  .object({
    productId: z.string(),
    stock: z.number().int(),
    threshold: z.number().int().describe("low stock is below this (5)"),
  })
  .meta({ id: "StockData" });
const Deleted = z.object({ id: z.string() }).meta({ id: "DeletedData" });
const ComplianceData = z
  .object({
    requestId: z.string(),
    customerEmail: z.string().describe("the shopper's e-mail, as the merchant found them (trimmed, lower case)"),
    orderIds: z.array(z.string()).describe("their orders (with read_orders; else empty)"),
    reviewIds: z.array(z.string()).describe("their reviews (with read_reviews; else empty)"),
  })
  .meta({ id: "CustomerPrivacyData" });

type Entry = { summary: string; data: z.ZodObject };

/** What each event's `data` holds. */
export const EVENT_DATA = {
  "order.created": {
    summary: "An order was placed (storefront checkout or POST /app-api/orders)",
    data: z
      .object({
        ...orderRef,
        amount: Money.describe("the order's total"),
        deliveryFee: Money.describe("the delivery fee"),
        deliveryMethod: z.enum(["DELIVERY", "PICKUP"]),
        paymentMethod: z.string().describe("CASH, CARD, or the namespaced id of an app's method"),
        isGuest: z.boolean(),
        createdAt: isoDate,
      })
      .meta({ id: "OrderCreatedData" }),
  },
  "order.status_changed": {
    summary: "An order moved to another status",
    data: z
      .object({ ...orderRef, previousStatus: OrderStatus, status: OrderStatus })
      .meta({ id: "OrderStatusChangedData" }),
  },
  "order.delivered": { summary: "An order was marked DELIVERED (after its order.status_changed)", data: OrderRef },
  "order.cancelled": { summary: "An order was CANCELLED (after its order.status_changed)", data: OrderRef },
  "payment.completed": { summary: "The payment app reported a payment COMPLETED", data: Payment },
  "payment.expired": {
    summary: "A payment expired (reported by the payment app, or its expiresAt passed)",
    data: Payment,
  },
  "product.created": { summary: "A product was added (the product as the App API shows it)", data: Product },
  "product.updated": { summary: "A product changed (the product as it is now)", data: Product },
  "product.deleted": { summary: "A product was deleted", data: Deleted },
  "product.out_of_stock": { summary: "A tracked product's stock reached 0", data: Stock },
  "product.low_stock": { summary: "A tracked product's stock fell below 5", data: Stock },
  "product.back_in_stock": { summary: "A tracked product's stock rose from 0", data: Stock },
  "review.created": { summary: "A shopper wrote a review (the review as the App API shows it)", data: Review },
  "review.deleted": { summary: "A review was deleted", data: Deleted },
  "business.data_erasure": {
    summary:
      "48 hours after an uninstall: erase everything stored about the business, then answer 2xx. Sent to the install registration, no scope or subscription needed",
    data: z
      .object({ appId: z.string(), businessId: z.string(), uninstalledAt: isoDate })
      .meta({ id: "DataErasureData" }),
  },
  "app.uninstalled": {
    summary:
      "The installation ended (the merchant uninstalled the app; its token is already revoked). Sent at once to the install registration, signed with the installation's webhook secret; no scope or subscription needed",
    data: z
      .object({ installationId: z.string(), businessId: z.string(), uninstalledAt: isoDate })
      .meta({ id: "AppUninstalledData" }),
  },
  "customer.data_request": {
    summary:
      "A shopper asked the merchant for the data held about them (contract 15): send the merchant what your app holds on them. Sent to the install registration of apps holding read_orders or read_reviews; the ids are those your scopes cover",
    data: ComplianceData,
  },
  "customer.redact": {
    summary:
      "A shopper asked to be forgotten (contract 15): erase or anonymise what your app holds on them, then answer 2xx. Sent like customer.data_request; the platform's own copies already show replaced values",
    data: ComplianceData,
  },
  "app_subscription.updated": {
    summary:
      "One of the installation's subscriptions or charges changed status, reached 90% of its usage cap, or had its cap changed (contract 13). Sent to the install registration; no scope needed",
    data: z
      .object({
        subscriptionId: z.string(),
        installationId: z.string(),
        businessId: z.string(),
        planId: z.string().nullable(),
        name: z.string(),
        kind: z.enum(["RECURRING", "ONE_TIME"]),
        status: z.enum(["PENDING", "ACTIVE", "DECLINED", "EXPIRED", "CANCELLED"]),
        test: z.boolean(),
        reason: z.enum(["STATUS_CHANGED", "CAP_NEARLY_REACHED", "CAP_CHANGED"]),
        trialEndsAt: isoDate.nullable(),
        currentPeriodEnd: isoDate.nullable(),
        usageCap: Money.nullable(),
        usageBalance: Money.nullable(),
        updatedAt: isoDate,
      })
      .meta({ id: "AppSubscriptionUpdatedData" }),
  },
  "webhook.test": {
    summary: "Sent by POST /webhooks/{id}/test (and storefront-apps trigger webhook.test)",
    data: z.object({ message: z.string(), webhookId: z.string() }).meta({ id: "WebhookTestData" }),
  },
} as const satisfies Record<EventName, Entry>;

/** The data of an event, as its builder must produce it. */
export type EventData<E extends EventName> = z.input<(typeof EVENT_DATA)[E]["data"]>;
/** An event as a change emits it: its business, its name, and its data of that name's shape. */
export type EventInput = { [E in EventName]: { businessId: string; type: E; data: EventData<E> } }[EventName];
/** A typed event: `event(businessId, "review.created", serializeReview(row))`. */
export const event = <E extends EventName>(businessId: string, type: E, data: EventData<E>) =>
  ({ businessId, type, data }) as Extract<EventInput, { type: E }>;

const pascal = (name: string) =>
  name
    .split(/[._]/)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("");

/** The delivery envelope of each event (contract 7): what a receiver parses. Named `<Event>Event` in the document. */
export const EVENT_ENVELOPES = Object.fromEntries(
  Object.entries(EVENT_DATA).map(([name, entry]) => [
    name,
    z
      .object({
        id: z.string().describe("the delivery's id (X-Service-Event-Id), kept across retries: deduplicate on it"),
        event: z.literal(name),
        timestamp: isoDate.describe("when the event happened"),
        webhookId: z.string().describe("the registration (X-Webhook-Id)"),
        businessId: z.string(),
        apiVersion: z.string().describe("the API version the body is written in (the app's pinned one)"),
        data: entry.data,
      })
      .meta({ id: `${pascal(name)}Event`, description: entry.summary }),
  ]),
) as unknown as Record<EventName, z.ZodObject>;

/** Any delivery's body, told apart by `event` (the SDK's `WebhookEvent`). */
export const WebhookEvent = z
  .discriminatedUnion("event", Object.values(EVENT_ENVELOPES) as unknown as [z.ZodObject, ...z.ZodObject[]])
  .meta({ id: "WebhookEvent" });

/** The headers of every delivery (spec "Delivery headers"). */
export const DELIVERY_HEADERS = [
  { name: "X-Webhook-Id", description: "The registration's id" },
  { name: "X-Webhook-Event", description: "The event's name" },
  { name: "X-Webhook-Signature", description: "sha256=<hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`>" },
  { name: "X-Webhook-Timestamp", description: "Unix time in seconds of this attempt" },
  { name: "X-Service-Event-Id", description: "The delivery's id, identical across retries (the envelope's id)" },
  { name: "Api-Version", description: "The API version the body is written in (the app's pinned one)" },
  { name: "User-Agent", description: "Service-Webhooks/1.0" },
] as const;
