/**
 * The shop's units for every merchant page: its locale, time zone and currency, given once by the
 * admin's layout (routes/admin.tsx) and read by any page or component with `useShopFormat()`.
 * Dates go through the one date formatter (platform/core/dates.ts), money through the one money
 * formatter (platform/core/money.ts); a page outside the admin (portal, review console) gets UTC,
 * en-US and USD.
 */
import { createContext, useContext, useMemo, type ReactNode } from "react";
import { dateFormatter, formatCount, type DateFormat } from "~/platform/core/dates";
import { moneyFormatter } from "~/platform/core/money";

export type ShopUnits = { locale: string; timeZone: string; currency: string };

const PLATFORM_UNITS: ShopUnits = { locale: "en-US", timeZone: "UTC", currency: "USD" };
const ShopUnitsContext = createContext<ShopUnits>(PLATFORM_UNITS);

export function ShopFormatProvider({ units, children }: { units: ShopUnits; children: ReactNode }) {
  const value = useMemo(() => units, [units.locale, units.timeZone, units.currency]); // eslint-disable-line react-hooks/exhaustive-deps
  return <ShopUnitsContext.Provider value={value}>{children}</ShopUnitsContext.Provider>;
}

export type ShopFormat = ShopUnits & {
  /** Dates and times in the shop's zone and locale. */
  dates: DateFormat;
  /** Minor units as money in the shop's locale, in its currency unless another is given (an order keeps its own). */
  money: (minor: number, currency?: string) => string;
  /** A plain number in the shop's locale. */
  count: (n: number) => string;
};

export function useShopFormat(): ShopFormat {
  const units = useContext(ShopUnitsContext);
  return useMemo(() => {
    const dates = dateFormatter(units.locale, units.timeZone);
    return {
      ...units,
      // the zone Intl could use (an unknown setting reads as UTC, and says so)
      timeZone: dates.timeZone,
      dates,
      money: (minor: number, currency = units.currency) => moneyFormatter(units.locale, currency)(minor),
      count: (n: number) => formatCount(n, units.locale),
    };
  }, [units]);
}
