/**
 * The orders list's filter (search, status, a date range in the business's time zone, the sort) as
 * it travels in the query string. Shared by the page (links that keep the filter), the list query
 * and the CSV export; parseOrderFilter (admin-queries.server.ts) reads it from the query string.
 */
import type { OrderStatus } from "../../../db/schema/catalog";

export const ORDER_SORTS = ["newest", "oldest", "amount_desc", "amount_asc"] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];
export const ORDER_SORT_LABELS: Record<OrderSort, string> = {
  newest: "Newest first",
  oldest: "Oldest first",
  amount_desc: "Amount: high to low",
  amount_asc: "Amount: low to high",
};

/** Searches shorter than this match order numbers only (trigrams need three characters). */
export const MIN_TEXT_SEARCH = 3;

export type OrderFilter = {
  /** as typed, trimmed; "" for none */
  q: string;
  status: OrderStatus | null;
  /** YYYY-MM-DD, inclusive, in the business's time zone */
  from: string | null;
  to: string | null;
  sort: OrderSort;
  timeZone: string;
};

/** The filter as query parameters (set ones only), for links that keep it. */
export function orderFilterQuery(
  f: Pick<OrderFilter, "q" | "status" | "from" | "to" | "sort">,
): Record<string, string | null> {
  return { q: f.q || null, status: f.status, from: f.from, to: f.to, sort: f.sort === "newest" ? null : f.sort };
}

export const isFiltered = (f: OrderFilter) => Boolean(f.q || f.status || f.from || f.to);
