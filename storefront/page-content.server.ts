/**
 * A site page as the storefront renders it: its blocks and, in the same statement, the products
 * its grids show.
 */
import type { Db } from "../db/client";
import { rawQuery } from "../db/sql";
import type { PageBlock } from "../db/schema";
import { publicBlocks } from "./blocks";
import { defaultHomeBlocks } from "./business.server";
import { moneyFormatter } from "./format.server";
import { productView, SHOWN_PRODUCT, type ProductView, type ShownProduct } from "./products.server";
import type { Shop } from "./shop.server";
import { notFound } from "./site-helpers.server";

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
