/**
 * The one low-stock rule (contract 7: stock events `{productId, stock, threshold}`, low stock below
 * 5). A tracked product's stock is reserved by the order that sells it (checkout.server.ts, inside
 * the order's statement) and set by the merchant or an app (catalog/products.server.ts); both raise
 * the same events by this rule, and the storefront shows "Only N left" by it. No server code: the
 * storefront's pages use it too. (Migration 0018's trigger repeats the number in SQL, frozen with
 * the migration.)
 */
export const LOW_STOCK_THRESHOLD = 5;

export const STOCK_EVENT_TYPES = ["product.out_of_stock", "product.low_stock", "product.back_in_stock"] as const;
export type StockEventType = (typeof STOCK_EVENT_TYPES)[number];

/** Whether a tracked stock counts as low (shown to shoppers as "Only N left"). */
export const isLowStock = (stock: number | null): stock is number =>
  stock !== null && stock > 0 && stock < LOW_STOCK_THRESHOLD;

/** The stock events of a tracked product whose stock went from `was` (null: untracked or new) to `now`, in the order they are emitted. */
export function stockEventTypes(was: number | null, now: number): StockEventType[] {
  if (now === 0) return was !== 0 ? ["product.out_of_stock"] : [];
  if (now < LOW_STOCK_THRESHOLD) {
    if (was === 0) return ["product.back_in_stock", "product.low_stock"];
    return was === null || was >= LOW_STOCK_THRESHOLD ? ["product.low_stock"] : [];
  }
  return was === 0 ? ["product.back_in_stock"] : [];
}

/**
 * The same rule for stock taken by orders, in SQL (`stock` the new stock, `taken` the quantity the
 * order took): the type of the event a reservation raises, and when it raises one. A reservation
 * only lowers stock, so it never raises back_in_stock.
 */
export const reservedStockEventSql = (stock: string) =>
  `case when ${stock} = 0 then 'product.out_of_stock' else 'product.low_stock' end`;
export const reservedStockCrossedSql = (stock: string, taken: string) =>
  `${stock} = 0 or (${stock} < ${LOW_STOCK_THRESHOLD} and ${stock} + ${taken} >= ${LOW_STOCK_THRESHOLD})`;
