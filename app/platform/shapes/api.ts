/**
 * The App API's answer schemas and the request schemas that are not a domain's own input. Route
 * modules declare them on their operations (decision 025): the wrapper validates requests with
 * them and the OpenAPI document is made from them; tests check real answers against them.
 */
import { z } from "zod";
import { ORDER_STATUSES } from "../../../db/schema/catalog";

/** A timestamp as both APIs write it. */
export const isoDate = z.string().describe("ISO 8601 timestamp");

/** The delivery log counts its rows up to this many (decision 068): its `total` is min(deliveries, cap). */
export const DELIVERY_COUNT_CAP = 10_000;

/** Money (from 2026-11-27, contract 12): an integer of the currency's minor units and its ISO 4217 code. */
export const Money = z
  .object({
    amount: z.number().int().describe("in the currency's minor units: 650 is $6.50 in USD, ¥650 in JPY"),
    currency: z.string().describe("ISO 4217 code"),
  })
  .meta({ id: "Money" });

export const ErrorBody = z
  .object({ statusCode: z.number().int(), message: z.string(), error: z.string() })
  .meta({ id: "Error" });

export const Business = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    type: z.string(),
    address: z.string(),
    phone: z.string(),
    email: z.string(),
    currency: z.string(),
    locale: z.string(),
    timezone: z.string(),
  })
  .meta({ id: "Business" });

export const Product = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    price: Money,
    category: z.string(),
    isAvailable: z.boolean(),
    imageUrl: z.string(),
    slug: z.string(),
    status: z.enum(["ACTIVE", "DRAFT", "ARCHIVED"]),
    stock: z.number().int().nullable().describe("null: stock not tracked"),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: "Product" });

export const OrderStatus = z.enum(ORDER_STATUSES).meta({ id: "OrderStatus" });

export const Order = z
  .object({
    id: z.string(),
    orderNumber: z.string(),
    status: OrderStatus,
    subtotal: Money,
    discount: Money,
    deliveryFee: Money,
    amount: Money,
    currency: z.string(),
    deliveryMethod: z.enum(["DELIVERY", "PICKUP"]),
    paymentMethod: z.string(),
    paymentStatus: z.enum(["NONE", "PENDING", "COMPLETED", "EXPIRED", "FAILED"]),
    isGuest: z.boolean(),
    customer: z.object({ name: z.string(), phone: z.string(), email: z.string().nullable() }),
    items: z.array(z.object({ productId: z.string(), name: z.string(), price: Money, quantity: z.number().int() })),
    address: z.string().nullable(),
    notes: z.string().nullable(),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: "Order" });

export const Review = z
  .object({
    id: z.string(),
    productId: z.string(),
    rating: z.number().int().min(1).max(5),
    comment: z.string(),
    authorName: z.string(),
    createdAt: isoDate,
    reply: z
      .object({ body: z.string(), createdAt: isoDate })
      .nullable()
      .describe("the merchant's public answer, shown under the review on the storefront; null when none"),
  })
  .meta({ id: "Review" });

export const ReviewStats = z
  .object({
    averageRating: z.number(),
    totalReviews: z.number().int(),
    distribution: z.object({
      "1": z.number().int(),
      "2": z.number().int(),
      "3": z.number().int(),
      "4": z.number().int(),
      "5": z.number().int(),
    }),
  })
  .meta({ id: "ReviewStats" });

export const PageBlock = z.object({
  id: z.string(),
  kind: z.enum(["builtin", "app"]),
  type: z.string(),
  appId: z.string().optional(),
  settings: z.record(z.string(), z.unknown()),
});
export const Page = z
  .object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    isPublished: z.boolean(),
    blocks: z.array(PageBlock),
    updatedAt: isoDate,
  })
  .meta({ id: "Page" });

export const Dashboard = z
  .object({
    today: z.object({ orders: z.number().int(), revenue: Money }),
    last30Days: z.object({ orders: z.number().int(), revenue: Money }),
    averageOrderValue: Money,
    ordersByStatus: z.record(z.string(), z.number().int()),
    topProducts: z.array(
      z.object({ productId: z.string(), name: z.string(), quantity: z.number().int(), revenue: Money }),
    ),
  })
  .meta({ id: "Dashboard" });

export const listOf = <T extends z.ZodType>(item: T, name: string) =>
  z
    .object({ data: z.array(item), total: z.number().int(), page: z.number().int(), limit: z.number().int() })
    .meta({ id: name });

/** The next page's cursor (contract 6, decision 067): sent back as `after`; null on the last page. */
export const NextCursor = z
  .string()
  .nullable()
  .describe("opaque; send it as `after` (instead of `page`) for the next page; null on the last page");

/** An App API list: `{data, total, page, limit, nextCursor}`. */
export const cursorListOf = <T extends z.ZodType>(item: T, name: string) =>
  z
    .object({
      data: z.array(item),
      total: z.number().int(),
      page: z.number().int(),
      limit: z.number().int(),
      nextCursor: NextCursor,
    })
    .meta({ id: name });

export const ProductList = cursorListOf(Product, "ProductList");
export const OrderList = cursorListOf(Order, "OrderList");
export const ReviewList = cursorListOf(Review, "ReviewList");
export const PageList = cursorListOf(Page, "PageList");

export const StatusChange = z
  .object(
    { status: z.enum(ORDER_STATUSES, { error: () => `must be one of ${ORDER_STATUSES.join(", ")}` }) },
    { error: "must be an object with status" },
  )
  .meta({ id: "StatusChange" });
export const PaymentReport = z
  .object({ status: z.enum(["COMPLETED", "EXPIRED"]), invoiceId: z.string().min(1).max(200) })
  .meta({ id: "PaymentReport" });

const webhookFields = {
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  isActive: z.boolean(),
  description: z.string(),
  createdAt: isoDate,
};
export const WebhookCreated = z
  .object({ ...webhookFields, secret: z.string().describe("whsec_…, shown only in this answer") })
  .meta({ id: "WebhookCreated" });
export const Webhook = z
  .object({
    ...webhookFields,
    disabledReason: z.string().nullable().describe("consecutive_failures when auto-disabled"),
  })
  .meta({ id: "Webhook" });
export const WebhookList = cursorListOf(Webhook, "WebhookList");
export const Delivery = z
  .object({
    id: z.string().describe("also X-Service-Event-Id and the envelope's id"),
    eventId: z.string(),
    event: z.string(),
    apiVersion: z
      .string()
      .describe("the API version the body was rendered in (the app's pin when the delivery was written)"),
    status: z.enum(["PENDING", "RETRYING", "SUCCEEDED", "FAILED"]),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastDurationMs: z.number().int().nullable(),
    nextAttemptAt: isoDate.nullable(),
    createdAt: isoDate,
  })
  .meta({ id: "Delivery" });
export const DeliveryList = z
  .object({
    data: z.array(Delivery),
    total: z
      .number()
      .int()
      .describe(
        `the registration's deliveries, counted up to ${DELIVERY_COUNT_CAP}: a longer log says ${DELIVERY_COUNT_CAP}`,
      ),
    page: z.number().int(),
    limit: z.number().int(),
    nextCursor: NextCursor,
  })
  .meta({ id: "DeliveryList" });
export const Redelivery = z.object({ id: z.string(), status: z.literal("QUEUED") }).meta({ id: "Redelivery" });
export const WebhookTestResult = z
  .object({
    success: z.boolean(),
    statusCode: z.number().int().nullable(),
    durationMs: z.number().int(),
    error: z.string().optional(),
  })
  .meta({ id: "WebhookTestResult" });

export const InstallationInfo = z
  .object({
    installationId: z.string(),
    appId: z.string(),
    businessId: z.string(),
    scopes: z.array(z.string()),
    needsReConsent: z.boolean(),
    isTestInstall: z.boolean(),
    settings: z
      .record(z.string(), z.unknown())
      .describe("the app settings the merchant saved (manifest settingsSchema)"),
    installedAt: isoDate,
  })
  .meta({ id: "InstallationInfo" });
