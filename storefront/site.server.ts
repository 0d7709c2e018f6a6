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
 *
 * Its parts, each one job: format.server.ts (money and dates), business.server.ts (the business and
 * its pages), shop.server.ts (the shop, once per request), products.server.ts, page-content.server.ts
 * (a page's blocks and grids) and shopper-orders.server.ts; this file gathers them for the routes
 * (`~/storefront.server`).
 */
export { dateFormatter, moneyFormatter } from "./format.server";
// the URL checks and the block rules are shared with the browser (the site builder's live preview)
export { httpUrl, publicBlock, publicBlocks, safeUrl, type BlockDefinition, type PublicBlock } from "./blocks";
export {
  defaultHomeBlocks,
  loadBusinessBySlug,
  loadHomePage,
  loadPage,
  publicBusiness,
  publishedPages,
  type PublicBusiness,
} from "./business.server";
export { loadShop, shopOf, type Shop, type ShopBlock, type ShopEmbed } from "./shop.server";
export {
  activeProducts,
  gridProducts,
  groupByCategory,
  isSellable,
  productBySlug,
  productView,
  type ProductView,
  type ShownProduct,
} from "./products.server";
export { pageContentOf, type PageContent } from "./page-content.server";
export { orderForShopper } from "./shopper-orders.server";
export { shopDescription, shopWords } from "../app/platform/accounts/shop-words";
