import { availableBlocks } from "../app/platform/extensions/merchant.server";
import { publicBlocks, safeUrl } from "./blocks";
/**
 * What a shopper sees of a business at /s/<businessSlug>: the business, its published pages, its
 * ACTIVE products and their reviews. Every query is scoped to the business found by its slug.
 * Loaders format money and dates here, on the server, so that the page renders the same text on
 * the server and in the browser.
 */
import { and, asc, avg, count, desc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { businesses, orderItems, orders, pages, products, reviews, type Business, type Order, type OrderItem, type Page, type PageBlock, type Product } from "../db/schema";
import { defaultHomePage } from "../app/platform/catalog/demo-data.server";
import { LOW_STOCK_THRESHOLD } from "./checkout.server";

const notFound = (message: string) => new Response(message, { status: 404, statusText: "Not Found" });

// ---- formatting ----

/** Formats minor units in the business's locale and the given (or the business's) currency. */
export function moneyFormatter(business: Pick<Business, "locale" | "currency">, currency = business.currency): (minor: number) => string {
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat(business.locale, { style: "currency", currency });
  } catch {
    try {
      format = new Intl.NumberFormat("en-US", { style: "currency", currency });
    } catch {
      return (minor) => `${(minor / 100).toFixed(2)} ${currency}`;
    }
  }
  return (minor) => format.format(minor / 100);
}

export function dateFormatter(business: Pick<Business, "locale" | "timezone">, options: Intl.DateTimeFormatOptions = { dateStyle: "medium" }): (d: Date) => string {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat(business.locale, { ...options, timeZone: business.timezone });
  } catch {
    format = new Intl.DateTimeFormat("en-US", { ...options, timeZone: "UTC" });
  }
  return (d) => format.format(d);
}

// the URL checks and the block rules are shared with the browser (the site builder's live preview)
export { httpUrl, publicBlock, publicBlocks, safeUrl, type BlockDefinition, type PublicBlock } from "./blocks";

// ---- the business and its pages ----

/** The business of a storefront URL; a 404 Response when there is none. */
export async function loadBusinessBySlug(db: Db, slug: string | undefined): Promise<Business> {
  if (!slug || slug.length > 100) throw notFound("We could not find this shop.");
  const [row] = await db.select().from(businesses).where(eq(businesses.slug, slug));
  if (!row) throw notFound("We could not find this shop.");
  return row;
}

/** What the storefront shows of the business. */
export function publicBusiness(b: Business) {
  return { id: b.id, name: b.name, slug: b.slug, address: b.address, phone: b.phone, email: b.email, currency: b.currency, locale: b.locale };
}
export type PublicBusiness = ReturnType<typeof publicBusiness>;

/** A published page of the business; a 404 Response when it is missing or unpublished. */
export async function loadPage(db: Db, businessId: string, pageSlug: string | undefined): Promise<Page> {
  if (!pageSlug || pageSlug.length > 100) throw notFound("We could not find this page.");
  const [row] = await db.select().from(pages).where(and(eq(pages.businessId, businessId), eq(pages.slug, pageSlug)));
  if (!row || !row.isPublished) throw notFound("We could not find this page.");
  return row;
}

/** The home page: the published "home" page, a default one when the business has none, 404 when unpublished. */
export async function loadHomePage(db: Db, business: Business): Promise<Pick<Page, "slug" | "title" | "blocks">> {
  const [row] = await db.select().from(pages).where(and(eq(pages.businessId, business.id), eq(pages.slug, "home")));
  if (!row) return { slug: "home", title: "Home", blocks: defaultHomePage(business.name) };
  if (!row.isPublished) throw notFound("We could not find this page.");
  return row;
}

/** The published pages for the navigation, oldest first. */
export async function publishedPages(db: Db, businessId: string): Promise<{ slug: string; title: string }[]> {
  return db
    .select({ slug: pages.slug, title: pages.title })
    .from(pages)
    .where(and(eq(pages.businessId, businessId), eq(pages.isPublished, true)))
    .orderBy(asc(pages.createdAt), asc(pages.title), asc(pages.id))
    .limit(20);
}

// ---- products ----

/** Whether a shopper can put the product in the cart right now. */
export const isSellable = (p: Pick<Product, "status" | "isAvailable" | "stock">) => p.status === "ACTIVE" && p.isAvailable && (p.stock === null || p.stock > 0);

/** A product as the storefront shows it. */
export function productView(p: Product, money: (minor: number) => string) {
  return {
    id: p.id,
    slug: p.slug,
    name: p.name,
    description: p.description,
    category: p.category,
    imageUrl: safeUrl(p.imageUrl),
    price: p.price,
    priceLabel: money(p.price),
    sellable: isSellable(p),
    availability: !p.isAvailable ? ("unavailable" as const) : p.stock === 0 ? ("sold-out" as const) : ("available" as const),
    /** the stock left when it is tracked and low, else null */
    lowStock: p.stock !== null && p.stock > 0 && p.stock < LOW_STOCK_THRESHOLD ? p.stock : null,
    maxQuantity: p.stock === null ? 999 : Math.max(1, Math.min(999, p.stock)),
  };
}
export type ProductView = ReturnType<typeof productView>;

/** Products for a "product-grid" block: ACTIVE and available, newest first. */
export async function gridProducts(db: Db, businessId: string, limit: number): Promise<Product[]> {
  const n = Math.min(48, Math.max(1, Math.floor(Number.isFinite(limit) ? limit : 8)));
  return db
    .select()
    .from(products)
    .where(and(eq(products.businessId, businessId), eq(products.status, "ACTIVE"), eq(products.isAvailable, true)))
    .orderBy(desc(products.createdAt), desc(products.id))
    .limit(n);
}

/** Every ACTIVE product (the menu), in the order the merchant created them. */
export async function activeProducts(db: Db, businessId: string): Promise<Product[]> {
  return db
    .select()
    .from(products)
    .where(and(eq(products.businessId, businessId), eq(products.status, "ACTIVE")))
    .orderBy(asc(products.createdAt), asc(products.id))
    .limit(500);
}

/** ACTIVE products grouped by category, categories in the order their first product appears. */
export function groupByCategory<T extends { category: string }>(items: T[]): { category: string; items: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = item.category.trim() || "Other";
    const list = groups.get(key) ?? [];
    list.push(item);
    groups.set(key, list);
  }
  return [...groups].map(([category, list]) => ({ category, items: list }));
}

/** An ACTIVE product by its slug with its reviews (newest first) and their stats; null when none. */
export async function productBySlug(db: Db, businessId: string, slug: string | undefined, options: { reviewLimit?: number } = {}) {
  if (!slug || slug.length > 100) return null;
  const [product] = await db
    .select()
    .from(products)
    .where(and(eq(products.businessId, businessId), eq(products.slug, slug), eq(products.status, "ACTIVE")));
  if (!product) return null;
  const where = and(eq(reviews.businessId, businessId), eq(reviews.productId, product.id));
  const [list, [stats]] = await Promise.all([
    db.select().from(reviews).where(where).orderBy(desc(reviews.createdAt), desc(reviews.id)).limit(options.reviewLimit ?? 50),
    db.select({ total: count(), average: avg(reviews.rating) }).from(reviews).where(where),
  ]);
  const total = Number(stats?.total ?? 0);
  const average = total ? Math.round(Number(stats.average) * 10) / 10 : 0;
  return { product, reviews: list, stats: { averageRating: average, totalReviews: total } };
}

// ---- page blocks ----

/** A page's blocks and the products its product grids show (one query for all grids). */
export async function pageContent(db: Db, business: Business, blocks: PageBlock[]) {
  const list = publicBlocks(blocks, await availableBlocks(db, business.id));
  const limits = list.flatMap((b) => (b.kind === "builtin" && b.type === "product-grid" ? [b.limit] : []));
  const money = moneyFormatter(business);
  const rows = limits.length ? await gridProducts(db, business.id, Math.max(...limits)) : [];
  return { blocks: list, products: rows.map((p) => productView(p, money)) };
}

// ---- orders ----

/** An order of the business with its items; null when it belongs to another business or does not exist. */
export async function orderForShopper(db: Db, businessId: string, orderId: string | undefined): Promise<{ order: Order; items: OrderItem[] } | null> {
  if (!orderId || orderId.length > 64) return null;
  const [order] = await db.select().from(orders).where(and(eq(orders.businessId, businessId), eq(orders.id, orderId)));
  if (!order) return null;
  const items = await db.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(asc(orderItems.id));
  return { order, items };
}
