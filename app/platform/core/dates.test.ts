import { describe, expect, it } from "vitest";
import { dateFormatter, formatCount, UTC_DATES } from "./dates";
import { formatMoney, moneyFormatter } from "./money";

// 09:05:07 UTC on Nov 28, 2026: 18:05 in Tokyo, 10:05 in Copenhagen (winter, CET)
const AT = "2026-11-28T09:05:07Z";
// Jul 1, 2026: Copenhagen is on summer time (CEST, +02:00)
const SUMMER = "2026-07-01T09:05:07Z";
const nbsp = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

describe("the one date formatter", () => {
  it("writes times in Asia/Tokyo, saying the zone where asked", () => {
    const tokyo = dateFormatter("en-US", "Asia/Tokyo");
    expect(nbsp(tokyo.dateTime(AT))).toBe("Nov 28, 2026, 6:05 PM");
    expect(nbsp(tokyo.dateTime(AT, { zone: true }))).toBe("Nov 28, 2026, 6:05 PM GMT+9");
    expect(nbsp(tokyo.dateTime(AT, { seconds: true }))).toBe("Nov 28, 2026, 6:05:07 PM");
    expect(tokyo.day("2026-11-28T16:00:00Z")).toBe("Nov 29, 2026"); // already the next day in Tokyo
    expect(tokyo.localDay("2026-11-28T16:00:00Z")).toBe("2026-11-29");
    expect(tokyo.iso(AT)).toBe("2026-11-28T18:05:07+09:00");
    expect(tokyo.timeZone).toBe("Asia/Tokyo");
    const ja = dateFormatter("ja-JP", "Asia/Tokyo");
    expect(ja.dateTime(AT)).toBe("2026/11/28 18:05");
  });

  it("writes Copenhagen's times in Danish, with the offset of the day (winter and summer)", () => {
    const cph = dateFormatter("da-DK", "Europe/Copenhagen");
    expect(nbsp(cph.dateTime(AT))).toBe("28. nov. 2026, 10.05");
    expect(cph.zoneName(AT)).toBe("CET");
    expect(cph.zoneName(SUMMER)).toBe("CEST");
    expect(cph.iso(AT)).toBe("2026-11-28T10:05:07+01:00");
    expect(cph.iso(SUMMER)).toBe("2026-07-01T11:05:07+02:00");
    expect(cph.calendarDay("2026-11-28")).toBe("28. nov. 2026");
  });

  it("falls back to UTC for a zone Intl does not know and to en-US for an unusable locale; '—' for no date", () => {
    const f = dateFormatter("xx-NOPE-123456789", "Mars/Base");
    expect(f.timeZone).toBe("UTC");
    expect(nbsp(f.dateTime(AT, { zone: true }))).toBe("Nov 28, 2026, 9:05 AM UTC");
    expect(f.iso(AT)).toBe("2026-11-28T09:05:07+00:00");
    expect(UTC_DATES.dateTime(null)).toBe("—");
    expect(UTC_DATES.day(undefined)).toBe("—");
  });

  it("writes counts in the locale", () => {
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(formatCount(1234567, "da-DK")).toBe("1.234.567");
  });
});

describe("the one money formatter", () => {
  it("writes a Danish shop's euros, yen in Tokyo and dollars", () => {
    expect(nbsp(formatMoney(650, "EUR", "da-DK"))).toBe("6,50 €");
    expect(nbsp(formatMoney(100_000_000, "EUR", "da-DK"))).toBe("1.000.000,00 €");
    expect(formatMoney(1500, "JPY", "ja-JP")).toBe("￥1,500");
    expect(formatMoney(1500, "JPY", "en-US")).toBe("¥1,500");
    expect(formatMoney(675, "EUR", "en-US")).toBe("€6.75");
    expect(moneyFormatter("da-DK", "DKK")(12345)).toMatch(/^123,45\skr\.$/);
  });
});
