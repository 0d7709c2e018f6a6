/**
 * What a shopper sees of a business at /s/<businessSlug>: the business, its published pages, its
 * ACTIVE products and their reviews. Every query is scoped to the business found by its slug.
 * Loaders format money and dates here, on the server, so that the page renders the same text on
 * the server and in the browser.
 *
 * A storefront page reads the database twice (issue 17): once for the shop (`loadShop`: the
 * business with its content version, the navigation, the active app blocks and embeds; shared by
 * every loader of the request through `shopOf`, and read before any loader runs when the page may
 * be served from a cache), and once for what the page itself shows (`homeContent`, `pageContentOf`,
 * `menuProducts`, `productBySlug`), each one hand-written statement.
 */
import { and, asc, desc, eq, getTableColumns, type Table } from "drizzle-orm";
import type { Db } from "../db/client";
import { rawQuery } from "../db/sql";
import {
  businesses,
  orderItems,
  orders,
  pages,
  products,
  reviews,
  type Business,
  type Order,
  type OrderItem,
  type Page,
  type PageBlock,
  type Product,
  type Review,
  type WidgetPlacement,
} from "../db/schema";
import type { BlockDef, EmbedDef } from "../app/platform/shapes/manifest";
import type { AvailableBlock, StorefrontEmbed } from "../app/platform/extensions/merchant.server";
import { placementOf } from "../app/platform/extensions/placement";
import { publicBlocks, safeUrl } from "./blocks";
import { isLowStock } from "../app/platform/catalog/stock";
import { moneyFormatter as formatterOf } from "../app/platform/core/money";
import { shopDescription, shopWords } from "../app/platform/accounts/shop-words";

const notFound = (message: string) => new Response(message, { status: 404, statusText: "Not Found" });

// ---- formatting ----

// Intl formatters are dear to make (tens of microseconds each) and the same for every page of a
// shop: made once per locale, currency, time zone and options (a few hundred at most).
const FORMATTERS_MAX = 500;
const dateFormats = new Map<string, (d: Date) => string>();
function remember<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    if (cache.size >= FORMATTERS_MAX) cache.clear();
    cache.set(key, (value = make()));
  }
  return value;
}

/** Formats minor units in the business's locale and the given (or the business's) currency, by the currency's decimals (core/money.ts). */
export function moneyFormatter(
  business: Pick<Business, "locale" | "currency">,
  currency = business.currency,
): (minor: number) => string {
  return formatterOf(business.locale, currency);
}

export function dateFormatter(
  business: Pick<Business, "locale" | "timezone">,
  options: Intl.DateTimeFormatOptions = { dateStyle: "medium" },
): (d: Date) => string {
  return remember(dateFormats, `${business.locale}\u0000${business.timezone}\u0000${JSON.stringify(options)}`, () => {
    let format: Intl.DateTimeFormat;
    try {
      format = new Intl.DateTimeFormat(business.locale, { ...options, timeZone: business.timezone });
    } catch {
      format = new Intl.DateTimeFormat("en-US", { ...options, timeZone: "UTC" });
    }
    return (d: Date) => format.format(d);
  });
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
  return {
    id: b.id,
    name: b.name,
    slug: b.slug,
    address: b.address,
    phone: b.phone,
    email: b.email,
    currency: b.currency,
    locale: b.locale,
    /** the catalogue's name in the shop's words: "Products", or "Menu" for a restaurant (decision 061) */
    catalogue: shopWords(b.type).catalogue,
    /** the pages' `<meta name="description">`: the shop's own, or one made from its name */
    description: shopDescription(b),
  };
}
export type PublicBusiness = ReturnType<typeof publicBusiness>;

/** A published page of the business; a 404 Response when it is missing or unpublished. */
export async function loadPage(db: Db, businessId: string, pageSlug: string | undefined): Promise<Page> {
  if (!pageSlug || pageSlug.length > 100) throw notFound("We could not find this page.");
  const [row] = await db
    .select()
    .from(pages)
    .where(and(eq(pages.businessId, businessId), eq(pages.slug, pageSlug)));
  if (!row || !row.isPublished) throw notFound("We could not find this page.");
  return row;
}

/**
 * The home page of a business that never saved one: a heading, a line of text and the newest
 * products. Its block ids are fixed, so that the page renders the same bytes every time (its ETag
 * stands for them).
 */
export function defaultHomeBlocks(business: Pick<Business, "name" | "type">): PageBlock[] {
  return [
    { id: "blk_default_heading", kind: "builtin", type: "heading", settings: { text: `Welcome to ${business.name}` } },
    { id: "blk_default_text", kind: "builtin", type: "text", settings: { text: shopWords(business.type).welcome } },
    { id: "blk_default_grid", kind: "builtin", type: "product-grid", settings: { limit: 8 } },
  ];
}

/** The home page: the published "home" page, a default one when the business has none, 404 when unpublished. */
export async function loadHomePage(db: Db, business: Business): Promise<Pick<Page, "slug" | "title" | "blocks">> {
  const [row] = await db
    .select()
    .from(pages)
    .where(and(eq(pages.businessId, business.id), eq(pages.slug, "home")));
  if (!row) return { slug: "home", title: "Home", blocks: defaultHomeBlocks(business) };
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

// ---- the shop: read once per request ----

/** `alias."column" as "key"` for every column of a drizzle table, so hand-written statements stay in step with the schema. */
function selectList(table: Table, alias: string): string {
  return Object.entries(getTableColumns(table))
    .map(([key, column]) => `${alias}."${column.name}" as "${key}"`)
    .join(", ");
}

/** Rows that came through json_agg have their timestamps as text: made Dates again, as drizzle would give them. */
function revive<T>(table: Table, row: Record<string, unknown>): T {
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    if (column.dataType === "date" && typeof row[key] === "string") row[key] = new Date(row[key] as string);
  }
  return row as T;
}

/** An app block as the storefront renders it (the registry's AvailableBlock). */
export type ShopBlock = AvailableBlock;
/** An embed of an active installation with the merchant's switch and settings. */
export type ShopEmbed = StorefrontEmbed;

export type Shop = {
  business: Business;
  /** bumped in the transaction of every change to what the storefront shows (migration 0018) */
  contentVersion: number;
  /** the published pages for the navigation, oldest first (home included) */
  nav: { slug: string; title: string }[];
  /** active block extensions of ACTIVE installations, in installation order */
  blocks: ShopBlock[];
  /** active embed extensions of ACTIVE installations, enabled or not */
  embeds: ShopEmbed[];
};

type ShopExtensionRow = {
  kind: "block" | "embed";
  definition: Record<string, unknown>;
  appId: string;
  appName: string;
  appSlug: string;
  appIconUrl: string | null;
  installationId: string;
  embedEnabled: boolean | null;
  embedSettings: Record<string, unknown> | null;
  embedPlacement: WidgetPlacement | null;
};

/**
 * Everything the storefront's layout and its pages read of a business, in one statement: the
 * business, its content version, the navigation, and the app blocks and embeds of its ACTIVE
 * installations (the registry's order: installation, then key) with the embeds' merchant settings.
 * (Statements are made on first use: a call at a module's top level would keep this module, and
 * what it imports, in the browser's bundle of the routes that import it.)
 */
let shopSql: string | undefined;
const SHOP_SQL = () =>
  (shopSql ??= `
  select ${selectList(businesses, "b")}, coalesce(v.version, 0) as "contentVersion",
    (select coalesce(json_agg(json_build_object('slug', n.slug, 'title', n.title) order by n.created_at, n.title, n.id), '[]'::json)
       from (select slug, title, created_at, id from pages where business_id = b.id and is_published order by created_at, title, id limit 20) n) as "nav",
    (select coalesce(json_agg(json_build_object('kind', e.kind, 'definition', e.definition, 'appId', a.id, 'appName', a.name, 'appSlug', a.slug, 'appIconUrl', a.icon_url,
                                                'installationId', i.id, 'embedEnabled', es.enabled, 'embedSettings', es.settings,
                                                'embedPlacement', es.placement)
                              order by i.installed_at, i.id, e.key), '[]'::json)
       from installations i
       join apps a on a.id = i.app_id
       join extensions e on e.app_id = a.id and e.is_active and e.kind in ('block', 'embed')
       left join embed_settings es on e.kind = 'embed' and es.installation_id = i.id and es.embed_type = e.key
       where i.business_id = b.id and i.status = 'ACTIVE') as "extensions"
  from businesses b
  left join storefront_versions v on v.business_id = b.id
  where b.slug = $1`);

/** The shop of a storefront URL, or null when no business has that slug. */
export async function loadShop(db: Db, slug: string | undefined): Promise<Shop | null> {
  if (!slug || slug.length > 100) return null;
  const [row] = await rawQuery<
    Record<string, unknown> & { contentVersion: number; nav: Shop["nav"]; extensions: ShopExtensionRow[] }
  >(db, SHOP_SQL(), [slug]);
  if (!row) return null;
  const { contentVersion, nav, extensions, ...business } = row;
  const blocks: ShopBlock[] = [];
  const embeds: ShopEmbed[] = [];
  for (const x of extensions) {
    if (x.kind === "block")
      blocks.push({
        ...(x.definition as unknown as BlockDef),
        appId: x.appId,
        appName: x.appName,
        installationId: x.installationId,
      });
    else {
      const def = x.definition as unknown as EmbedDef;
      embeds.push({
        ...def,
        appId: x.appId,
        appSlug: x.appSlug,
        appIconUrl: x.appIconUrl,
        installationId: x.installationId,
        enabled: x.embedEnabled ?? true,
        settings: x.embedSettings ?? def.defaultConfig ?? {},
        placement: placementOf(def, x.embedPlacement),
      });
    }
  }
  return { business: business as unknown as Business, contentVersion: Number(contentVersion), nav, blocks, embeds };
}

/** What Remix hands every loader of one request (web.server.ts, storefront-pages.server.ts). */
type LoadContext = { db: Db; storefrontShop?: Shop | null };
const shopsOfRequest = new WeakMap<object, Map<string, Promise<Shop | null>>>();

/**
 * The shop of the request's URL, read once per request: the layout and the page's loader run at the
 * same time and share one read; when the storefront's HTTP layer read it already (to answer a
 * conditional request), that read is used. A 404 Response when there is no such shop.
 */
export async function shopOf(context: LoadContext, slug: string | undefined): Promise<Shop> {
  let shop: Shop | null;
  if (context.storefrontShop && context.storefrontShop.business.slug === slug) shop = context.storefrontShop;
  else {
    let reads = shopsOfRequest.get(context);
    if (!reads) shopsOfRequest.set(context, (reads = new Map()));
    let read = reads.get(slug ?? "");
    if (!read) reads.set(slug ?? "", (read = loadShop(context.db, slug)));
    shop = await read;
  }
  if (!shop) throw notFound("We could not find this shop.");
  return shop;
}

// ---- products ----

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

const SHOWN_PRODUCT = `id, slug, name, description, category, image_url as "imageUrl", price, status, is_available as "isAvailable", stock`;

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

// ---- page blocks ----

/**
 * A site page ($2; "home" for the home page) and, in the same statement, the products its grids show:
 * ACTIVE and available, newest first, as many as its largest grid (block settings as publicBlock
 * reads them; when the page does not exist, $3: the default home page's grid).
 */
let pageSql: string | undefined;
const PAGE_SQL = () =>
  (pageSql ??= `
  with pg as (select slug, title, is_published as "isPublished", blocks from pages where business_id = $1 and slug = $2),
  grid as (
    select coalesce(max(case when jsonb_typeof(blk->'settings'->'limit') = 'number' and (blk->'settings'->>'limit') ~ '^[0-9]+(\\.[0-9]+)?$'
                             then least(48, greatest(1, floor((blk->'settings'->>'limit')::numeric)))::int else 8 end), 0) as n
    from pg, jsonb_array_elements(case when jsonb_typeof(pg.blocks) = 'array' then pg.blocks else '[]'::jsonb end) blk
    where jsonb_typeof(blk) = 'object' and blk->>'kind' = 'builtin' and blk->>'type' = 'product-grid')
  select (select row_to_json(pg) from pg) as "page",
    (select coalesce(json_agg(g order by g.created_at desc, g.id desc), '[]'::json) from (
       select ${SHOWN_PRODUCT}, created_at from products where business_id = $1 and status = 'ACTIVE' and is_available
       order by created_at desc, id desc
       limit (select case when exists (select 1 from pg) then (select n from grid) else $3 end)) g) as "products"`);

export type PageContent = { title: string; blocks: ReturnType<typeof publicBlocks>; products: ProductView[] };

/**
 * A published page of the shop with its blocks as the storefront renders them and the products of
 * its grids; the home page falls back to the default one. A 404 Response when it is missing or
 * unpublished.
 */
export async function pageContentOf(db: Db, shop: Shop, pageSlug: string | undefined): Promise<PageContent> {
  if (!pageSlug || pageSlug.length > 100) throw notFound("We could not find this page.");
  const home = pageSlug === "home";
  const [row] = await rawQuery<{
    page: { slug: string; title: string; isPublished: boolean; blocks: PageBlock[] } | null;
    products: ShownProduct[];
  }>(db, PAGE_SQL(), [shop.business.id, pageSlug, home ? 8 : 0]);
  const page =
    row?.page ??
    (home ? { slug: "home", title: "Home", isPublished: true, blocks: defaultHomeBlocks(shop.business) } : null);
  if (!page || !page.isPublished) throw notFound("We could not find this page.");
  const money = moneyFormatter(shop.business);
  return {
    title: page.title,
    blocks: publicBlocks(page.blocks, shop.blocks),
    products: (row?.products ?? []).map((p) => productView(p, money)),
  };
}

// ---- orders ----

/** An order of the business with its items; null when it belongs to another business or does not exist. */
export async function orderForShopper(
  db: Db,
  businessId: string,
  orderId: string | undefined,
): Promise<{ order: Order; items: OrderItem[] } | null> {
  if (!orderId || orderId.length > 64) return null;
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.businessId, businessId), eq(orders.id, orderId)));
  if (!order) return null;
  const items = await db.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(asc(orderItems.id));
  return { order, items };
}

export { shopDescription, shopWords };
