/** Marketplace and review constants and formatting shared by server and browser code (issue 20). */
export const REVIEW_BODY_MAX = 2000;
export const MARKET_SORTS = ["popular", "rating", "newest", "name"] as const;
export type MarketSort = (typeof MARKET_SORTS)[number];
export const MARKET_PAGE_SIZE = 48;

/** "1,200+": below 10 the exact number, then rounded down to a readable step, with a plus. */
export function roundedInstalls(n: number): string {
  if (n < 10) return String(n);
  const step = n < 100 ? 10 : n < 10000 ? 100 : n < 100000 ? 1000 : 10000;
  return `${(Math.floor(n / step) * step).toLocaleString("en-US")}+`;
}

/** "4.3" (one decimal), or null when unrated. */
export function formatRating(avg: number | null): string | null {
  return avg === null ? null : (Math.round(avg * 10) / 10).toFixed(1);
}
