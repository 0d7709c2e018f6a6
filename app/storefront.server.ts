/**
 * The shopper runtime (`storefront/`) as the storefront's routes import it.
 *
 * Remix's browser build replaces a `*.server.ts` module with an empty one only when it lies inside
 * `app/` (@remix-run/dev's empty-modules plugin); `storefront/*.server.ts` and `db/` lie outside,
 * so a route that imported them directly, even for its loader alone, shipped them to the browser
 * with what they import: zod with all its locales and drizzle's table builders, 480 KB of
 * JavaScript on every storefront page that never ran there (docs/performance.md, "Storefront first
 * visit"). Routes import from here instead: this module is inside `app/` and server-only, so the
 * browser build sees an empty module and nothing behind it.
 */
export * from "../storefront/site.server";
export * from "../storefront/cart.server";
export * from "./platform/core/order-link.server";
export {
  checkout,
  checkoutSchema,
  quote,
  TotalChangedError,
  type Quote,
  type Priced,
} from "./platform/orders/checkout.server";
export { products } from "../db/schema";
