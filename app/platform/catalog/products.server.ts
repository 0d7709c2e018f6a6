/**
 * Product and review changes made by the merchant (admin) or shoppers (storefront), each with its
 * events in the same transaction.
 */
import { and, eq, isNotNull } from "drizzle-orm";
import { z } from "zod";
import type { Database, Tx } from "../../../db/client";
import { businesses, products, reviews, type Product } from "../../../db/schema";
import { pgErrorCode } from "../../../db/sql";
import { ApiError } from "../core/http.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { emitEvent, event } from "../events/emit.server";
import { lockBusinessRow } from "../core/business-rows.server";
import { serializeProduct, serializeReview } from "./serialize.server";
import { LOW_STOCK_THRESHOLD, stockEventTypes } from "./stock";
import { MAX_PRICE_MINOR } from "../core/money";

const slugify = (s: string) =>
  s
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 60);

export const productSchema = z.object({
  name: z.string().trim().min(1, "is required").max(120),
  slug: z
    .string()
    .trim()
    .max(60)
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "must be lowercase letters, digits and hyphens")
    .optional(),
  description: z.string().trim().max(2000).default(""),
  price: z.number().int("must be a whole number of minor units (cents, yen, fils)").min(0).max(MAX_PRICE_MINOR),
  category: z.string().trim().max(60).default(""),
  isAvailable: z.boolean().default(true),
  imageUrl: z
    .string()
    .trim()
    // refused, never cut (an address cut short is a broken picture): upload the picture instead
    .max(2000, "must be at most 2,000 characters: upload the picture instead, or use a shorter address")
    .refine((v) => v === "" || v.startsWith("/") || /^https?:\/\//.test(v), "must be a relative path or an http(s) URL")
    .refine((v) => !v.startsWith("//"), "must be a relative path or an http(s) URL")
    .default(""),
  status: z.enum(["ACTIVE", "DRAFT", "ARCHIVED"]).default("ACTIVE"),
  stock: z.number().int().min(0).max(1_000_000).nullable().default(null),
});
export type ProductInput = z.infer<typeof productSchema>;

/** The business's currency: product events carry the price in its major units, as the App API does. */
async function currencyOf(tx: Tx, businessId: string): Promise<string> {
  const [row] = await tx
    .select({ currency: businesses.currency })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  return row?.currency ?? "USD";
}

async function stockEvents(tx: Tx, before: Product | null, after: Product) {
  if (after.stock === null) return;
  const data = { productId: after.id, stock: after.stock, threshold: LOW_STOCK_THRESHOLD };
  for (const type of stockEventTypes(before?.stock ?? null, after.stock))
    await emitEvent(tx, event(after.businessId, type, data));
}

export function createProduct(db: Database, businessId: string, input: ProductInput): Promise<Product> {
  return writeProduct(db, businessId, "product.created", async (tx) => {
    const t = now();
    const [row] = await tx
      .insert(products)
      .values({
        id: newId("prd"),
        businessId,
        ...input,
        slug: input.slug || slugify(input.name) || newId("p", 8),
        createdAt: t,
        updatedAt: t,
      })
      .returning();
    return [null, row];
  });
}

export function updateProduct(
  db: Database,
  businessId: string,
  id: string,
  input: Partial<ProductInput>,
): Promise<Product> {
  return writeProduct(db, businessId, "product.updated", async (tx) => {
    const before = await lockBusinessRow(tx, products, businessId, id, "Product not found");
    const [row] = await tx
      .update(products)
      .set({ ...input, updatedAt: now() })
      .where(eq(products.id, id))
      .returning();
    return [before, row];
  });
}

/**
 * Writes a product in a transaction, then emits `type` with the product as it is now and the stock
 * events of the change, in the same transaction; a slug another product has is 409.
 */
async function writeProduct(
  db: Database,
  businessId: string,
  type: "product.created" | "product.updated",
  write: (tx: Tx) => Promise<[before: Product | null, row: Product]>,
): Promise<Product> {
  try {
    return await db.transaction(async (tx) => {
      const [before, row] = await write(tx);
      await emitEvent(tx, event(businessId, type, serializeProduct(row, await currencyOf(tx, businessId))));
      await stockEvents(tx, before, row);
      return row;
    });
  } catch (e) {
    if (pgErrorCode(e) === "23505") throw new ApiError(409, "Another product already has this slug");
    throw e;
  }
}

/** Deletes a product (its reviews go with it; past orders keep their lines). */
export function deleteProduct(db: Database, businessId: string, id: string) {
  return deleteAndTell(db, products, businessId, id, { event: "product.deleted", notFound: "Product not found" });
}

/** Deletes the business's row and emits its `.deleted` event in the same transaction; 404 when the business has none. */
async function deleteAndTell(
  db: Database,
  table: typeof products | typeof reviews,
  businessId: string,
  id: string,
  said: { event: "product.deleted" | "review.deleted"; notFound: string },
) {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(table)
      .where(and(eq(table.businessId, businessId), eq(table.id, id)))
      .returning({ id: table.id });
    if (!row) throw new ApiError(404, said.notFound);
    await emitEvent(tx, event(businessId, said.event, { id }));
  });
}

export const reviewSchema = z.object({
  rating: z.number().int().min(1, "must be 1-5").max(5, "must be 1-5"),
  comment: z.string().trim().max(2000).default(""),
  authorName: z.string().trim().min(1, "is required").max(80),
  /** optional, never shown or sent to apps: lets the shop find the review when the shopper asks for their data (decision 040) */
  authorEmail: z
    .string()
    .trim()
    .max(254)
    .pipe(z.union([z.literal(""), z.email()]))
    .transform((e) => (e === "" ? null : e))
    .optional(),
});

export async function createReview(
  db: Database,
  businessId: string,
  productId: string,
  input: z.infer<typeof reviewSchema>,
) {
  return db.transaction(async (tx) => {
    const [product] = await tx
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.businessId, businessId), eq(products.id, productId)));
    if (!product) throw new ApiError(404, "Product not found");
    const [row] = await tx
      .insert(reviews)
      .values({ id: newId("rev"), businessId, productId, ...input, createdAt: now() })
      .returning();
    await emitEvent(tx, event(businessId, "review.created", serializeReview(row)));
    return row;
  });
}

export function deleteReview(db: Database, businessId: string, id: string) {
  return deleteAndTell(db, reviews, businessId, id, { event: "review.deleted", notFound: "Review not found" });
}

/** A review's reply as the merchant API answers it. */
export type ReviewReply = { reviewId: string; body: string; createdAt: string };

/**
 * The merchant's public answer to a shopper's review (contract 20, decision 060): one per review;
 * answering again replaces it (with a new date). Shown under the review on the storefront and in
 * the App API's review; the review row's change bumps the storefront's content version (trigger,
 * migration 0018). Another business's review is 404.
 */
export async function replyToReview(db: Database, businessId: string, id: string, body: string): Promise<ReviewReply> {
  const t = now();
  const [row] = await db
    .update(reviews)
    .set({ replyBody: body, replyCreatedAt: t })
    .where(and(eq(reviews.id, id), eq(reviews.businessId, businessId)))
    .returning({ id: reviews.id });
  if (!row) throw new ApiError(404, "Review not found");
  return { reviewId: row.id, body, createdAt: t.toISOString() };
}

/** Removes the reply of one of the business's reviews: 404 when the review is not its, or has no reply. */
export async function removeReviewReply(db: Database, businessId: string, id: string): Promise<void> {
  const [row] = await db
    .update(reviews)
    .set({ replyBody: null, replyCreatedAt: null })
    .where(and(eq(reviews.id, id), eq(reviews.businessId, businessId), isNotNull(reviews.replyBody)))
    .returning({ id: reviews.id });
  if (row) return;
  const [review] = await db
    .select({ id: reviews.id })
    .from(reviews)
    .where(and(eq(reviews.id, id), eq(reviews.businessId, businessId)));
  throw new ApiError(404, review ? "The review has no reply" : "Review not found");
}
