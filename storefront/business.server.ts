/**
 * The business of a storefront URL and its pages: what the storefront shows of the business, a
 * published page, the home page (or the default one) and the navigation.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { perDatabase } from "../db/sql";
import { businesses, pages, type Business, type Page, type PageBlock } from "../db/schema";
import { shopDescription, shopWords } from "../app/platform/accounts/shop-words";
import { notFound } from "./site-helpers.server";

/**
 * Read by every cart change, checkout page, quote and order of the storefront: built once per
 * database handle (drizzle's building cost more than the database's answer; docs/performance.md,
 * session 14). Made on first use, so that the browser's bundle of a route never runs it.
 */
const businessBySlug = perDatabase((db: Db) =>
  db
    .select()
    .from(businesses)
    .where(eq(businesses.slug, sql.placeholder("slug")))
    .prepare("storefront_business_by_slug"),
);

/** The business of a storefront URL; a 404 Response when there is none. */
export async function loadBusinessBySlug(db: Db, slug: string | undefined): Promise<Business> {
  if (!slug || slug.length > 100) throw notFound("We could not find this shop.");
  const [row] = await businessBySlug(db).execute({ slug });
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
