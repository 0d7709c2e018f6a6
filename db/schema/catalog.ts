import {
  pgTable,
  text,
  boolean,
  integer,
  bigint,
  jsonb,
  index,
  uniqueIndex,
  check,
  customType,
  date,
} from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { counter, createdAt, id, refersTo, timestamps, ts } from "./columns";
import { businesses, ofBusiness } from "./accounts";

/** Raw bytes (PostgreSQL bytea) as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

export const products = pgTable(
  "products",
  {
    id: id(),
    businessId: ofBusiness(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    description: text("description").notNull().default(""),
    /** minor units */
    price: integer("price").notNull(),
    category: text("category").notNull().default(""),
    isAvailable: boolean("is_available").notNull().default(true),
    imageUrl: text("image_url").notNull().default(""),
    status: text("status", { enum: ["ACTIVE", "DRAFT", "ARCHIVED"] })
      .notNull()
      .default("ACTIVE"),
    /** null = untracked stock */
    stock: integer("stock"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("products_business_slug_key").on(t.businessId, t.slug),
    index("products_business_created_idx").on(t.businessId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // stock never goes below zero, whatever writes it (the checkout's order statement relies on it)
    check("products_stock_nonnegative", sql`stock is null or stock >= 0`),
  ],
);

/**
 * The text the admin's order search looks in (order number, customer name, phone, phone digits only,
 * email), lowercased, kept by PostgreSQL in the orders' `search_text` column (decision 095) and
 * indexed by a trigram GIN index (pg_trgm), so that a search is `search_text LIKE lower('%…%')`: the
 * same matches as ILIKE on the expression, without computing the expression and folding its case on
 * every row the index hands back.
 */
export const ORDER_SEARCH_TEXT =
  "lower(order_number || ' ' || customer_name || ' ' || customer_phone || ' ' || regexp_replace(customer_phone, '[^0-9]', '', 'g') || ' ' || coalesce(customer_email, ''))";

export const ORDER_STATUSES = [
  "PENDING",
  "CONFIRMED",
  "PREPARING",
  "READY",
  "IN_DELIVERY",
  "DELIVERED",
  "CANCELLED",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const orders = pgTable(
  "orders",
  {
    id: id(),
    businessId: ofBusiness(),
    orderNumber: text("order_number").notNull(),
    status: text("status", { enum: ORDER_STATUSES }).notNull().default("PENDING"),
    subtotal: integer("subtotal").notNull(),
    discount: integer("discount").notNull().default(0),
    /** what the discount apps said, shown to the shopper */
    discountReason: text("discount_reason"),
    deliveryFee: integer("delivery_fee").notNull().default(0),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    deliveryMethod: text("delivery_method", { enum: ["DELIVERY", "PICKUP"] }).notNull(),
    paymentMethod: text("payment_method").notNull(),
    /** the name an app gave its payment method at checkout ("RefPay"), for the merchant's pages; null for CASH and CARD */
    paymentMethodName: text("payment_method_name"),
    paymentStatus: text("payment_status", { enum: ["NONE", "PENDING", "COMPLETED", "EXPIRED", "FAILED"] })
      .notNull()
      .default("NONE"),
    paymentInstallationId: text("payment_installation_id"),
    paymentInvoiceId: text("payment_invoice_id"),
    paymentUrl: text("payment_url"),
    paymentQrCode: text("payment_qr_code"),
    paymentExpiresAt: ts("payment_expires_at"),
    isGuest: boolean("is_guest").notNull().default(true),
    customerName: text("customer_name").notNull(),
    customerPhone: text("customer_phone").notNull(),
    customerEmail: text("customer_email"),
    address: text("address"),
    notes: text("notes"),
    /** what the admin's search looks in (ORDER_SEARCH_TEXT), kept by PostgreSQL; never written */
    searchText: text("search_text").notNull().generatedAlwaysAs(sql.raw(ORDER_SEARCH_TEXT)),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("orders_business_number_key").on(t.businessId, t.orderNumber),
    index("orders_business_created_idx").on(t.businessId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("orders_business_status_idx").on(t.businessId, t.status, t.createdAt.desc().nullsFirst()),
    index("orders_payment_open_idx")
      .on(t.paymentExpiresAt)
      .where(sql`payment_status = 'PENDING'`),
    // the admin's sorts by amount (both directions) and its search (decision 018)
    index("orders_business_amount_idx").on(t.businessId, t.amount.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("orders_search_text_idx").using("gin", sql`${t.searchText} gin_trgm_ops`),
    // a shopper's orders by e-mail (customer privacy, decision 040)
    index("orders_customer_email_idx")
      .on(t.businessId, sql`lower(btrim(customer_email))`)
      .where(sql`customer_email is not null`),
  ],
);

export const orderItems = pgTable(
  "order_items",
  {
    id: id(),
    orderId: refersTo("order_id", () => orders.id, { onDelete: "cascade" }),
    productId: text("product_id").notNull(),
    name: text("name").notNull(),
    price: integer("price").notNull(),
    quantity: integer("quantity").notNull(),
  },
  (t) => [index("order_items_order_idx").on(t.orderId)],
);

export const orderStatusChanges = pgTable(
  "order_status_changes",
  {
    id: id(),
    orderId: refersTo("order_id", () => orders.id, { onDelete: "cascade" }),
    fromStatus: text("from_status"),
    toStatus: text("to_status").notNull(),
    actor: text("actor").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("order_status_changes_order_idx").on(t.orderId)],
);

/** Idempotency-Key records of guest order creation (24 hours). */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    businessId: text("business_id").notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    orderId: text("order_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("idempotency_keys_key").on(t.businessId, t.key)],
);

export const reviews = pgTable(
  "reviews",
  {
    id: id(),
    businessId: ofBusiness(),
    productId: refersTo("product_id", () => products.id, { onDelete: "cascade" }),
    rating: integer("rating").notNull(),
    comment: text("comment").notNull().default(""),
    authorName: text("author_name").notNull(),
    /** the shopper's e-mail when they gave one (never shown or sent to apps): how a privacy request finds their reviews */
    authorEmail: text("author_email"),
    /** The merchant's public answer (1-2,000 characters), shown under the review; null: none (decision 060). */
    replyBody: text("reply_body"),
    replyCreatedAt: ts("reply_created_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("reviews_business_created_idx").on(t.businessId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("reviews_product_idx").on(t.productId),
    index("reviews_author_email_idx")
      .on(t.businessId, sql`lower(btrim(author_email))`)
      .where(sql`author_email is not null`),
  ],
);

export type PageBlock = {
  id: string;
  kind: "builtin" | "app";
  type: string;
  appId?: string;
  settings: Record<string, unknown>;
};

export const pages = pgTable(
  "pages",
  {
    id: id(),
    businessId: ofBusiness(),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    isPublished: boolean("is_published").notNull().default(true),
    blocks: jsonb("blocks").$type<PageBlock[]>().notNull().default([]),
    ...timestamps(),
  },
  (t) => [uniqueIndex("pages_business_slug_key").on(t.businessId, t.slug)],
);

export type Product = typeof products.$inferSelect;
export type Order = typeof orders.$inferSelect;
export type OrderItem = typeof orderItems.$inferSelect;
export type Review = typeof reviews.$inferSelect;
export type Page = typeof pages.$inferSelect;

/**
 * Row counts per business and table, kept by triggers (migrations 0004, 0013), so that list totals
 * do not count millions of rows on every page. Each insert or delete adds to one of 8 shard rows
 * chosen at random, so concurrent orders of one business do not queue on one row; a total is the
 * sum of the shards (exact: every change is counted in its own transaction).
 */
export const businessCounts = pgTable(
  "business_counts",
  {
    businessId: text("business_id").notNull(),
    entity: text("entity").notNull(),
    /** one of COUNT_SHARDS rows per business and table: a sale's orders add to different rows (migration 0013) */
    shard: integer("shard").notNull().default(0),
    n: counter("n"),
  },
  (t) => [uniqueIndex("business_counts_key").on(t.businessId, t.entity, t.shard)],
);

/**
 * The content version of each business's storefront (issue 17, decision 021): bumped by triggers
 * (migration 0018) in the transaction of every change to what storefront pages show (the business's
 * public fields, products as shown, reviews, pages, installations, embeds, app extensions and listing
 * names). Storefront pages derive their ETag from it, so a repeat view is a 304 without rendering.
 * A table of its own: every order updates its business's row (the order-number counter), and an order
 * that changes what pages show (a product selling out) must not hold that row through its commit.
 * No row yet is version 0.
 */
export const storefrontVersions = pgTable("storefront_versions", {
  businessId: text("business_id")
    .primaryKey()
    .references(() => businesses.id, { onDelete: "cascade" }),
  version: integer("version").notNull().default(0),
});

/**
 * Orders per (business, UTC day), kept by triggers on orders in the order's own transaction
 * (migration "order-rollups", decision 068): every order counts in `orders`, the ones not cancelled
 * in `paidOrders` and `revenue` (minor units). One of COUNT_SHARDS rows per day, like
 * business_counts, so that a sale's orders do not queue on one row; a day's figure is their sum.
 * The dashboards read these instead of the orders (issue 45).
 */
export const orderDailyStats = pgTable(
  "order_daily_stats",
  {
    businessId: text("business_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    shard: integer("shard").notNull().default(0),
    orders: counter("orders"),
    paidOrders: counter("paid_orders"),
    revenue: bigint("revenue", { mode: "number" }).notNull().default(0),
  },
  (t) => [uniqueIndex("order_daily_stats_key").on(t.businessId, t.day, t.shard)],
);

/**
 * Quantity sold and revenue (minor units) per (business, UTC day, product, line name) of orders not
 * cancelled, kept by triggers on order_items and orders (migration "order-rollups"): the dashboards'
 * top products. `lines` counts the lines, so that a name whose lines were all cancelled drops out.
 */
export const productDailySales = pgTable(
  "product_daily_sales",
  {
    businessId: text("business_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    productId: text("product_id").notNull(),
    name: text("name").notNull(),
    lines: counter("lines"),
    quantity: bigint("quantity", { mode: "number" }).notNull().default(0),
    revenue: bigint("revenue", { mode: "number" }).notNull().default(0),
  },
  (t) => [uniqueIndex("product_daily_sales_key").on(t.businessId, t.day, t.productId, t.name)],
);

/**
 * Quantity sold and revenue (minor units) per product of orders not cancelled created on or after
 * the business's product_windows.from_day (a UTC day about 30 days back, moved forward each day by
 * the `analytics__move_product_windows` job), kept by the same triggers as product_daily_sales
 * (decision 090): the dashboards' top 5 products of the last 30 days read a few rows of
 * `product_window_sales_rank` instead of every product-day row of the 30 days.
 */
export const productWindowSales = pgTable(
  "product_window_sales",
  {
    businessId: text("business_id").notNull(),
    productId: text("product_id").notNull(),
    lines: counter("lines"),
    quantity: bigint("quantity", { mode: "number" }).notNull().default(0),
    revenue: bigint("revenue", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    uniqueIndex("product_window_sales_key").on(t.businessId, t.productId),
    index("product_window_sales_rank")
      .on(t.businessId, t.quantity.desc().nullsFirst(), t.revenue.desc().nullsFirst(), t.productId)
      .where(sql`lines > 0`),
  ],
);

/** The first UTC day product_window_sales of a business counts (none: not built yet, the dashboards read the daily rows). */
export const productWindows = pgTable("product_windows", {
  businessId: text("business_id").primaryKey(),
  fromDay: date("from_day", { mode: "string" }).notNull(),
  movedAt: ts("moved_at").notNull().defaultNow(),
});

export const ORDER_EXPORT_STATUSES = ["QUEUED", "RUNNING", "READY", "FAILED"] as const;

/**
 * A CSV export of the admin's orders list (issue 45): written by the `orders__export` job in
 * batches into order_export_chunks, downloaded by the merchant once READY; `rows` counts what is
 * written so far (the page's progress), `expected` what the filter matched when the job started.
 */
export const orderExports = pgTable(
  "order_exports",
  {
    id: id(),
    businessId: ofBusiness(),
    /** the list's filter as its query string (q, status, from, to, sort) */
    query: text("query").notNull().default(""),
    timeZone: text("time_zone").notNull(),
    status: text("status", { enum: ORDER_EXPORT_STATUSES }).notNull().default("QUEUED"),
    rows: counter("rows"),
    expected: counter("expected"),
    bytes: bigint("bytes", { mode: "number" }).notNull().default(0),
    error: text("error"),
    finishedAt: ts("finished_at"),
    ...timestamps(),
  },
  (t) => [index("order_exports_business_idx").on(t.businessId, t.createdAt.desc().nullsFirst())],
);

/** The bytes of an export's file, in order (`seq`), a batch of rows each. */
export const orderExportChunks = pgTable(
  "order_export_chunks",
  {
    exportId: refersTo("export_id", () => orderExports.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    data: bytea("data").notNull(),
  },
  (t) => [uniqueIndex("order_export_chunks_key").on(t.exportId, t.seq)],
);
