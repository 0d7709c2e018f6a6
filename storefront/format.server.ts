/**
 * The storefront's money and dates, formatted on the server in the business's locale and time zone,
 * so that a page renders the same text on the server and in the browser.
 */
import type { Business } from "../db/schema";
import { moneyFormatter as formatterOf } from "../app/platform/core/money";

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
