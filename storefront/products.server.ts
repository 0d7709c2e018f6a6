/**
 * The shop's products as a shopper sees them: whether one can be bought, its view (price label,
 * availability, low stock), the grids' and the menu's lists, and one product with its reviews.
 */
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { rawQuery } from "../db/sql";
import { products, reviews, type Product, type Review } from "../db/schema";
import { isLowStock } from "../app/platform/catalog/stock";
import { safeUrl } from "./blocks";
import { revive, selectList } from "./site-helpers.server";

/** Whether a shopper can put the product in the cart right now. */
export const isSellable = (p: Pick<Product, "status" | "isAvailable" | "stock">) =>
  p.status === "ACTIVE" && p.isAvailable && (p.stock === null || p.stock > 0);

/** What the storefront reads of a product. */
export type ShownProduct = Pick<
  Product,
  "id" | "slug" | "name" | "description" | "category" | "imageUrl" | "price" | "status" | "isAvailable" | "stock"
>;

/**
 * A product as the storefront shows it. Of tracked stock it shows only what migration 0018's trigger
 * watches: sold out, or the count when it is low (`isLowStock`, orders/stock.ts: "Only 3 left"); at or above
 * it the page is the same whatever the count, so an ordinary order does not change the shop's pages
 * (the cart refuses more than is left, with the count).
 */
export function productView(p: ShownProduct, money: (minor: number) => string) {
  const low = isLowStock(p.stock);
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
    availability: !p.isAvailable
      ? ("unavailable" as const)
      : p.stock === 0
        ? ("sold-out" as const)
        : ("available" as const),
    /** the stock left when it is tracked and low, else null */
    lowStock: low ? p.stock : null,
    maxQuantity: low ? p.stock! : 999,
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

export const SHOWN_PRODUCT = `id, slug, name, description, category, image_url as "imageUrl", price, status, is_available as "isAvailable", stock`;

/** Every ACTIVE product (the menu), in the order the merchant created them. */
export async function activeProducts(db: Db, businessId: string): Promise<ShownProduct[]> {
  return rawQuery<ShownProduct>(
    db,
    `select ${SHOWN_PRODUCT} from products where business_id = $1 and status = 'ACTIVE' order by created_at, id limit 500`,
    [businessId],
  );
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

/**
 * An ACTIVE product by its slug with its reviews (newest first, at most reviewLimit) and their
 * stats, in one statement; null when none.
 */
let productSql: string | undefined;
const PRODUCT_SQL = () =>
  (productSql ??= `
  with p as (select ${selectList(products, "x")} from products x where x.business_id = $1 and x.slug = $2 and x.status = 'ACTIVE')
  select row_to_json(p) as "product",
    (select coalesce(json_agg(r order by r."createdAt" desc, r.id desc), '[]'::json)
       from (select ${selectList(reviews, "y")} from reviews y where y.business_id = $1 and y.product_id = p.id order by y.created_at desc, y.id desc limit $3) r) as "reviews",
    (select json_build_object('total', count(*), 'average', avg(rating)::float8) from reviews where business_id = $1 and product_id = p.id) as "stats"
  from p`);

export async function productBySlug(
  db: Db,
  businessId: string,
  slug: string | undefined,
  options: { reviewLimit?: number } = {},
) {
  if (!slug || slug.length > 100) return null;
  const limit = Math.max(0, Math.min(50, options.reviewLimit ?? 50));
  const [row] = await rawQuery<{
    product: Record<string, unknown>;
    reviews: Record<string, unknown>[];
    stats: { total: number; average: number | null };
  }>(db, PRODUCT_SQL(), [businessId, slug, limit]);
  if (!row) return null;
  const total = Number(row.stats?.total ?? 0);
  const average = total ? Math.round(Number(row.stats.average) * 10) / 10 : 0;
  return {
    product: revive<Product>(products, row.product),
    reviews: row.reviews.map((r) => revive<Review>(reviews, r)),
    stats: { averageRating: average, totalReviews: total },
  };
}
