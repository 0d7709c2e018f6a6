/**
 * The one date formatter (HOUSE_STYLE "People and words"; contract 20): every date and time a
 * merchant sees is written here, in the shop's time zone and locale, with Intl. The money
 * formatter is its sibling in money.ts. No server code: pages use it in the browser too, so the
 * server's and the browser's text are the same.
 *
 * A time zone Intl does not know falls back to UTC, a locale to en-US: a page never fails on a
 * setting saved by an older version.
 */

export type At = string | Date | number;

/** Formats dates and times in one locale and time zone. */
export type DateFormat = {
  /** The IANA time zone the times are in ("Asia/Tokyo"; "UTC" when the setting was not usable). */
  readonly timeZone: string;
  readonly locale: string;
  /** A date and time, "Nov 28, 2026, 6:05 PM" (en-US); `zone` adds the zone's short name ("GMT+9", "CET"); "—" for none. */
  dateTime(at: At | null | undefined, options?: { seconds?: boolean; zone?: boolean }): string;
  /** A day, "Nov 28, 2026"; "—" for none. */
  day(at: At | null | undefined): string;
  /** A calendar day given as "YYYY-MM-DD" (a day, not an instant: no zone moves it), "Nov 28, 2026". */
  calendarDay(ymd: string, options?: { short?: boolean }): string;
  /** The zone's short name at that instant ("GMT+9", "CET", "CEST", "UTC"). */
  zoneName(at?: At): string;
  /** The instant in ISO 8601 with the zone's offset at that instant, "2026-11-28T18:05:00+09:00" (exports). */
  iso(at: At): string;
  /** The local day of the instant, "2026-11-28". */
  localDay(at: At): string;
};

const toDate = (at: At) => (at instanceof Date ? at : new Date(at));

/** Whether Intl knows the time zone ("Europe/Copenhagen" yes, "Mars/Base" no). */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}

function usableLocale(locale: string): string {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([locale]).length ? locale : "en-US";
  } catch {
    return "en-US";
  }
}

// Intl formatters are dear to make and the same for every page of a shop: made once per locale and zone.
const CACHE_MAX = 500;
const cache = new Map<string, DateFormat>();

/** The date formatter of a locale and a time zone (a shop's `locale` and `timezone`). */
export function dateFormatter(locale: string, timeZone: string): DateFormat {
  const key = `${locale}|${timeZone}`;
  let f = cache.get(key);
  if (!f) {
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(key, (f = makeDateFormat(usableLocale(locale), isKnownTimeZone(timeZone) ? timeZone : "UTC")));
  }
  return f;
}

function makeDateFormat(locale: string, timeZone: string): DateFormat {
  const nf = (o: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, { timeZone, ...o });
  const minutes = nf({ dateStyle: "medium", timeStyle: "short" });
  const seconds = nf({ dateStyle: "medium", timeStyle: "medium" });
  // dateStyle cannot be combined with timeZoneName: the same fields spelled out
  const fields = { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" } as const;
  const minutesZone = nf({ ...fields, timeZoneName: "short" });
  const secondsZone = nf({ ...fields, second: "2-digit", timeZoneName: "short" });
  const day = nf({ dateStyle: "medium" });
  const calendar = new Intl.DateTimeFormat(locale, { timeZone: "UTC", dateStyle: "medium" });
  const calendarShort = new Intl.DateTimeFormat(locale, { timeZone: "UTC", month: "short", day: "numeric" });
  const zone = nf({ timeZoneName: "short" });
  const offset = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
  const partsOf = (at: At) =>
    Object.fromEntries(parts.formatToParts(toDate(at)).map((p) => [p.type, p.value])) as Record<string, string>;

  return {
    timeZone,
    locale,
    dateTime(at, options = {}) {
      if (at === null || at === undefined || at === "") return "—";
      const f = options.zone ? (options.seconds ? secondsZone : minutesZone) : options.seconds ? seconds : minutes;
      return f.format(toDate(at));
    },
    day(at) {
      if (at === null || at === undefined || at === "") return "—";
      return day.format(toDate(at));
    },
    calendarDay(ymd, options = {}) {
      return (options.short ? calendarShort : calendar).format(new Date(`${ymd}T00:00:00Z`));
    },
    zoneName(at = Date.now()) {
      return zone.formatToParts(toDate(at)).find((p) => p.type === "timeZoneName")?.value ?? timeZone;
    },
    iso(at) {
      const p = partsOf(at);
      // "GMT+09:00" -> "+09:00"; "GMT" (UTC itself) -> "+00:00"
      const gmt = offset.formatToParts(toDate(at)).find((x) => x.type === "timeZoneName")?.value ?? "GMT";
      const off = gmt === "GMT" ? "+00:00" : gmt.slice(3);
      return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${off}`;
    },
    localDay(at) {
      const p = partsOf(at);
      return `${p.year}-${p.month}-${p.day}`;
    },
  };
}

/** The platform's own pages (portal, review console) have no shop: dates in UTC, for en-US readers. */
export const UTC_DATES = dateFormatter("en-US", "UTC");

const numberFormats = new Map<string, Intl.NumberFormat>();
/** A count for people in the locale ("1,234", "1.234"); the one way a page writes a plain number. */
export function formatCount(n: number, locale = "en-US"): string {
  let f = numberFormats.get(locale);
  if (!f) {
    if (numberFormats.size >= CACHE_MAX) numberFormats.clear();
    f = new Intl.NumberFormat(usableLocale(locale));
    numberFormats.set(locale, f);
  }
  return f.format(n);
}
