/**
 * Each template's text part, as a snapshot (decision 064: the text is the same React tree as the HTML,
 * read as plain text), and what every HTML part must hold: language, colour schemes, escaped values.
 */
import { describe, expect, it } from "vitest";
import { renderMessage } from "./render";
import { SAMPLES } from "./samples";

const cases = SAMPLES;

describe("templates", () => {
  for (const [name, parts] of Object.entries(cases))
    it(`${name}: its text part`, () => {
      const r = renderMessage({ ...parts, brand: "Demo Bistro" });
      expect(`Subject: ${r.subject}\n\n${r.text}`).toMatchSnapshot();
      expect(r.html).toMatch(/^<!DOCTYPE html><html lang="en">/);
      expect(r.html).toContain('<meta name="color-scheme" content="light dark"/>');
      expect(r.html).not.toContain("<script");
      // every link of the text part is in the HTML part too
      for (const link of r.text.match(/https:\/\/[^\s)]+/g) ?? [])
        expect(r.html).toContain(link.replace(/&/g, "&amp;"));
    });

  it("escapes values in the HTML part and keeps them as they are in the text part", () => {
    const r = renderMessage({ ...cases.orderConfirmation, brand: "Demo Bistro" });
    expect(r.html).toContain("Ada &lt;b&gt;Lovelace&lt;/b&gt;");
    expect(r.html).not.toContain("<b>Lovelace</b>");
    expect(r.text).toContain("Hello Ada <b>Lovelace</b>, Demo Bistro received your order #1042.");
  });
});
