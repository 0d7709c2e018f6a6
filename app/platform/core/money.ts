/**
 * Money at the edge (HOUSE_STYLE "Data"; contract 6): amounts are integers of minor units
 * everywhere inside; this module alone converts them to and from major units by the currency's
 * ISO 4217 exponent (JPY 0, USD 2, KWD 3) and formats them with Intl.NumberFormat. No server code:
 * the admin's and the storefront's pages use it in the browser too, so server and browser render
 * the same text.
 */

/** ISO 4217 currencies whose minor unit is not a hundredth (every other code has 2 decimals). */
const EXPONENTS: Readonly<Record<string, number>> = {
  // no minor unit
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  // thousandths
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  // ten-thousandths (units of account)
  CLF: 4,
  UYW: 4,
};

/** The number of decimals of the currency's minor unit (ISO 4217): JPY 0, USD 2, KWD 3; 2 for a code it does not list. */
export function currencyExponent(currency: string): number {
  return EXPONENTS[currency.toUpperCase()] ?? 2;
}

/** Minor units -> major units of the currency, as the App API and webhooks carry them (1234 KWD minor -> 1.234). */
export function toMajor(minor: number, currency: string): number {
  const exponent = currencyExponent(currency);
  // dividing by the power of ten gives the nearest double to the decimal (1234 / 1000 = 1.234)
  return exponent === 0 ? Math.round(minor) : Math.round(minor) / 10 ** exponent;
}

/** Major units -> minor units, rounded to the nearest minor unit (12.5 USD -> 1250; 1500 JPY -> 1500). */
export function toMinor(major: number, currency: string): number {
  return Math.round(major * 10 ** currencyExponent(currency));
}

/** Minor units as the decimal a person types (1250 USD -> "12.50", 1500 JPY -> "1500", 1234 KWD -> "1.234"). */
export function toMajorText(minor: number, currency: string): string {
  return toMajor(minor, currency).toFixed(currencyExponent(currency));
}

/** The refusal of a typed amount with more decimals than the currency has. */
const tooManyDecimals = (exponent: number, currency: string, example: string) =>
  exponent === 0
    ? `must be a whole number in ${currency.toUpperCase()}, like ${example}`
    : `must have at most ${exponent} decimals in ${currency.toUpperCase()}, like ${example}`;

/**
 * A decimal a person typed (e.g. a product's price: "12.50", "1500", "1.234") -> minor units, or why
 * not: more decimals than the currency has is refused rather than rounded away.
 */
export function parseMajorText(
  text: string,
  currency: string,
): { ok: true; minor: number } | { ok: false; problem: string } {
  const exponent = currencyExponent(currency);
  const example = exponentExample(exponent);
  const t = text.trim();
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(t) || !Number.isFinite(Number(t)))
    return { ok: false, problem: `must be a number like ${example}` };
  const decimals = t.includes(".") ? t.length - t.indexOf(".") - 1 : 0;
  if (decimals > exponent && /[1-9]/.test(t.slice(t.indexOf(".") + 1 + exponent)))
    return { ok: false, problem: tooManyDecimals(exponent, currency, example) };
  return { ok: true, minor: toMinor(Number(t), currency) };
}

/** The largest price a product may have, in minor units (the product schema's bound). */
export const MAX_PRICE_MINOR = 100_000_000;

/** The decimal and group separators of a locale ("," and "." in da-DK; "." and "," in en-US). */
export function numberSeparators(locale: string): { decimal: string; group: string } {
  let parts: Intl.NumberFormatPart[];
  try {
    parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
  } catch {
    parts = new Intl.NumberFormat("en-US").formatToParts(12345.6);
  }
  return {
    decimal: parts.find((p) => p.type === "decimal")?.value ?? ".",
    group: parts.find((p) => p.type === "group")?.value ?? ",",
  };
}

/** Minor units as a person of the locale types them, with the locale's decimal separator (650 EUR in da-DK -> "6,50"). */
export function toMajorInput(minor: number, currency: string, locale: string): string {
  return toMajorText(minor, currency).replace(".", numberSeparators(locale).decimal);
}

/** An example amount as a person of the locale types it: "12.50" (en-US), "12,50" (da-DK), "1500" (JPY). */
export function exampleAmountIn(currency: string, locale: string): string {
  return exampleAmount(currency).replace(".", numberSeparators(locale).decimal);
}

const SPACES = /[\s\u00a0\u202f'’]/g;

/**
 * An amount a merchant typed, in their shop's locale, -> minor units, or why not in words that
 * follow the field's label. The locale's decimal separator is understood ("6,50" in a Danish shop,
 * "6.50" in an American one), and so are its group separators ("1.000,50"; spaces and apostrophes
 * too); a lone separator that cannot be a group separator (not followed by exactly three digits)
 * is read as the decimal one, so "6.50" also works in a Danish shop. The currency's sign or code
 * may be typed around it ("6,50 €", "$12.50"). Negative amounts, more decimals than the currency
 * has, and amounts above `max` (minor units) are refused, the bound written by the money formatter
 * ("must be at most 1.000.000,00 €").
 */
export function parseMoneyInput(
  text: string,
  currency: string,
  locale: string,
  options: { max?: number } = {},
): { ok: true; minor: number } | { ok: false; problem: string } {
  const exponent = currencyExponent(currency);
  const example = exampleAmountIn(currency, locale);
  const { decimal, group } = numberSeparators(locale);
  let t = text.trim();
  // the currency's code and sign as the formatter writes them, typed around the number
  const sign = moneyFormatter(locale, currency)(0).replace(/[\d\s\u00a0\u202f.,\-−]/g, "");
  for (const mark of [currency.toUpperCase(), currency.toLowerCase(), sign, "$", "€", "£", "¥", "￥"])
    if (mark) t = t.split(mark).join("");
  t = t.trim();
  if (/^[-−‐–]/.test(t) || /^\(.*\)$/.test(t)) return { ok: false, problem: "cannot be negative" };
  t = t.replace(SPACES, "");
  if (!/^[0-9.,]+$/.test(t) || !/\d/.test(t)) return { ok: false, problem: `must be a number like ${example}` };
  const seps = t.replace(/\d/g, "");
  let normal: string;
  if (seps === "") normal = t;
  else {
    const last = Math.max(t.lastIndexOf("."), t.lastIndexOf(","));
    const lastSep = t[last];
    const onlyOneKind = !seps.includes(lastSep === "." ? "," : ".");
    const groupsOk = (s: string, sep: string) => new RegExp(`^\\d{1,3}(\\${sep}\\d{3})+$`).test(s);
    if (onlyOneKind && seps.length > 1) {
      // 1.000.000 or 1,000,000: groups only
      if (!groupsOk(t, lastSep)) return { ok: false, problem: `must be a number like ${example}` };
      normal = t.split(lastSep).join("");
    } else if (onlyOneKind) {
      // one separator: the locale's decimal one is decimal; its group one only before exactly three digits
      const isGroup = lastSep === group && lastSep !== decimal && /^\d{1,3}[.,]\d{3}$/.test(t);
      normal = isGroup ? t.replace(lastSep, "") : t.replace(lastSep, ".");
    } else {
      // both kinds: the last one is the decimal separator, the others group the digits
      const whole = t.slice(0, last);
      const other = lastSep === "." ? "," : ".";
      if (whole.includes(lastSep) || !groupsOk(whole, other))
        return { ok: false, problem: `must be a number like ${example}` };
      normal = `${whole.split(other).join("")}.${t.slice(last + 1)}`;
    }
  }
  if (!/^\d*(\.\d*)?$/.test(normal) || !/\d/.test(normal))
    return { ok: false, problem: `must be a number like ${example}` };
  const [, fraction = ""] = normal.split(".");
  if (fraction.length > exponent && /[1-9]/.test(fraction.slice(exponent)))
    return { ok: false, problem: tooManyDecimals(exponent, currency, example) };
  const minor = toMinor(Number(normal), currency);
  if (!Number.isSafeInteger(minor) || (options.max !== undefined && minor > options.max))
    return {
      ok: false,
      problem: `must be at most ${formatMoney(options.max ?? Number.MAX_SAFE_INTEGER, currency, locale)}`,
    };
  return { ok: true, minor };
}

/** An example amount with the currency's decimals: "1500", "12.50", "12.500". */
export function exampleAmount(currency: string): string {
  return exponentExample(currencyExponent(currency));
}
const exponentExample = (exponent: number) => (exponent === 0 ? "1500" : `12.${"5".padEnd(exponent, "0")}`);

// Intl formatters are dear to make (tens of microseconds each) and the same for every page of a
// shop: made once per locale and currency (a few hundred at most).
const FORMATTERS_MAX = 500;
const formatters = new Map<string, (minor: number) => string>();

/**
 * Formats minor units as money in the locale ("$12.50", "￥1,500", "KWD 1.234"), with exactly the
 * currency's decimals. A locale or currency Intl does not know falls back to en-US, then to plain
 * digits and the code ("12.50 XYZ").
 */
export function moneyFormatter(locale: string, currency: string): (minor: number) => string {
  const key = `${locale}|${currency}`;
  let format = formatters.get(key);
  if (format === undefined) {
    if (formatters.size >= FORMATTERS_MAX) formatters.clear();
    formatters.set(key, (format = makeFormatter(locale, currency)));
  }
  return format;
}

function makeFormatter(locale: string, currency: string): (minor: number) => string {
  const digits = currencyExponent(currency);
  for (const loc of [locale, "en-US"]) {
    try {
      const nf = new Intl.NumberFormat(loc, {
        style: "currency",
        currency,
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      });
      return (minor: number) => nf.format(toMajor(minor, currency));
    } catch {
      // try the next locale, then plain digits
    }
  }
  return (minor: number) => `${toMajorText(minor, currency)} ${currency}`;
}

/** Minor units as money in the locale (see moneyFormatter). */
export function formatMoney(minor: number, currency: string, locale = "en-US"): string {
  return moneyFormatter(locale, currency)(minor);
}

/** Money as the App API carries it from 2026-11-27 on (contract 12): an integer of minor units and its ISO 4217 code. */
export type Money = { amount: number; currency: string };

/** Minor units -> the App API's money object (1250 USD -> {amount: 1250, currency: "USD"}). */
export function money(minor: number, currency: string): Money {
  return { amount: Math.round(minor), currency };
}

/** The App API's money object -> major units as 2026-11-21 carries them ({amount: 1250, currency: "USD"} -> 12.5). */
export function moneyToMajor(m: Money): number {
  return toMajor(m.amount, m.currency);
}

/** Whether a value is a money object ({amount: integer, currency: string}). */
export function isMoney(v: unknown): v is Money {
  return (
    typeof v === "object" &&
    v !== null &&
    Number.isInteger((v as Money).amount) &&
    typeof (v as Money).currency === "string"
  );
}
