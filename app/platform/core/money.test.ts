import { describe, expect, it } from "vitest";
import {
  currencyExponent,
  formatMoney,
  parseMajorText,
  parseMoneyInput,
  toMajor,
  toMajorInput,
  toMajorText,
  toMinor,
} from "./money";

describe("money by currency (ISO 4217 exponents)", () => {
  it("knows the exponents: JPY 0, USD 2, KWD 3, and 2 for a code it does not list", () => {
    expect([
      currencyExponent("JPY"),
      currencyExponent("USD"),
      currencyExponent("KWD"),
      currencyExponent("EUR"),
      currencyExponent("krw"),
      currencyExponent("BHD"),
      currencyExponent("XYZ"),
    ]).toEqual([0, 2, 3, 2, 0, 3, 2]);
  });

  it("converts minor units to major and back by the exponent", () => {
    expect(toMajor(1500, "JPY")).toBe(1500);
    expect(toMajor(1250, "USD")).toBe(12.5);
    expect(toMajor(1234, "KWD")).toBe(1.234);
    expect(toMajor(5, "KWD")).toBe(0.005);
    expect(toMinor(1500, "JPY")).toBe(1500);
    expect(toMinor(12.5, "USD")).toBe(1250);
    expect(toMinor(1.234, "KWD")).toBe(1234);
    expect(toMinor(0.29, "USD")).toBe(29);
    for (const [currency, minor] of [
      ["JPY", 987654],
      ["USD", 100_000_001],
      ["KWD", 1_000_999],
    ] as const)
      expect(toMinor(toMajor(minor, currency), currency)).toBe(minor);
  });

  it("formats with the currency's decimals", () => {
    expect(formatMoney(1500, "JPY", "en-US")).toBe("¥1,500");
    expect(formatMoney(1250, "USD", "en-US")).toBe("$12.50");
    expect(formatMoney(1234, "KWD", "en-US")).toBe("KWD\u00a01.234");
    expect(formatMoney(150000, "JPY", "ja-JP")).toBe("￥150,000");
    expect(formatMoney(1250, "USD", "not a locale!")).toBe("$12.50");
    expect(formatMoney(1234, "??", "en-US")).toBe("12.34 ??");
    expect([toMajorText(1500, "JPY"), toMajorText(1250, "USD"), toMajorText(1234, "KWD")]).toEqual([
      "1500",
      "12.50",
      "1.234",
    ]);
  });

  it("reads what a person typed, refusing more decimals than the currency has", () => {
    expect(parseMajorText("1500", "JPY")).toEqual({ ok: true, minor: 1500 });
    expect(parseMajorText("12.50", "USD")).toEqual({ ok: true, minor: 1250 });
    expect(parseMajorText("1.234", "KWD")).toEqual({ ok: true, minor: 1234 });
    expect(parseMajorText("1500.00", "JPY")).toEqual({ ok: true, minor: 1500 });
    expect(parseMajorText("12.5", "JPY")).toEqual({ ok: false, problem: "must be a whole number in JPY, like 1500" });
    expect(parseMajorText("1.2345", "KWD")).toEqual({
      ok: false,
      problem: "must have at most 3 decimals in KWD, like 12.500",
    });
    expect(parseMajorText("abc", "USD")).toEqual({ ok: false, problem: "must be a number like 12.50" });
  });
});

describe("money typed in the shop's locale", () => {
  const max = { max: 100_000_000 };
  const read = (text: string, currency: string, locale: string) => parseMoneyInput(text, currency, locale, max);
  it("understands the locale's decimal comma, its grouping, and the currency's sign around the number", () => {
    expect(read("6,50", "EUR", "da-DK")).toEqual({ ok: true, minor: 650 });
    expect(read("6.50", "EUR", "da-DK")).toEqual({ ok: true, minor: 650 }); // not a group: two digits follow
    expect(read("1.000,50", "EUR", "da-DK")).toEqual({ ok: true, minor: 100050 });
    expect(read("1.000", "EUR", "da-DK")).toEqual({ ok: true, minor: 100000 });
    expect(read("6,50 €", "EUR", "da-DK")).toEqual({ ok: true, minor: 650 });
    expect(read("12.50", "USD", "en-US")).toEqual({ ok: true, minor: 1250 });
    expect(read("$1,250.5", "USD", "en-US")).toEqual({ ok: true, minor: 125050 });
    expect(read("1,500", "USD", "en-US")).toEqual({ ok: true, minor: 150000 });
    expect(read("1 234,56", "EUR", "fr-FR")).toEqual({ ok: true, minor: 123456 });
    expect(read("¥1,500", "JPY", "ja-JP")).toEqual({ ok: true, minor: 1500 });
    expect(read("1500", "JPY", "en-US")).toEqual({ ok: true, minor: 1500 });
    expect(read("1,234", "KWD", "en-US")).toEqual({ ok: true, minor: 1234000 }); // a group in en-US
  });

  it("refuses in the shop's units: negative, too many decimals, above the bound (written by the money formatter)", () => {
    expect(read("-5", "EUR", "da-DK")).toEqual({ ok: false, problem: "cannot be negative" });
    expect(read("−5", "USD", "en-US")).toEqual({ ok: false, problem: "cannot be negative" });
    expect(read("1000000000", "EUR", "da-DK")).toEqual({
      ok: false,
      problem: "must be at most 1.000.000,00\u00a0€",
    });
    expect(read("100000001", "JPY", "ja-JP")).toEqual({ ok: false, problem: "must be at most ￥100,000,000" });
    expect(read("6,505", "EUR", "da-DK")).toEqual({
      ok: false,
      problem: "must have at most 2 decimals in EUR, like 12,50",
    });
    expect(read("12.5", "JPY", "ja-JP")).toEqual({ ok: false, problem: "must be a whole number in JPY, like 1500" });
    expect(read("abc", "EUR", "da-DK")).toEqual({ ok: false, problem: "must be a number like 12,50" });
    expect(read("1,2,3", "EUR", "da-DK")).toEqual({ ok: false, problem: "must be a number like 12,50" });
    expect(read("1.2.3", "USD", "en-US")).toEqual({ ok: false, problem: "must be a number like 12.50" });
  });

  it("writes a saved amount back the way the locale types it", () => {
    expect(toMajorInput(650, "EUR", "da-DK")).toBe("6,50");
    expect(toMajorInput(1250, "USD", "en-US")).toBe("12.50");
    expect(toMajorInput(1500, "JPY", "ja-JP")).toBe("1500");
    expect(read(toMajorInput(123456, "EUR", "da-DK"), "EUR", "da-DK")).toEqual({ ok: true, minor: 123456 });
  });
});
