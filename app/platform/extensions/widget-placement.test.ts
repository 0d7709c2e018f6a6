/**
 * Where a floating widget shows (decision 061), against the real server: the merchant's corner,
 * offset and phones switch through PUT /merchant/installations/<id>/embeds/<type> and the admin's
 * embed card, validated, kept per embed, only for floating widgets, and drawn by the storefront.
 * (That the launcher keeps off the header and the checkout button is e2e/widgets.spec.ts.)
 */
import { describe, expect, it } from "vitest";
import { startPlatform } from "../testing/platform";

import { appBody } from "../apps/apps.test-helpers";
import { installCast, installThroughOAuth } from "../testing/install";
import { chatEmbed } from "../testing/manifests";

const p = await startPlatform();
const { reviewer, dev, merchant, other, browser } = await installCast(p);
const { app } = await installThroughOAuth(
  p,
  { developer: dev, reviewer, merchant: browser },
  appBody({
    scopes: ["read_business"],
    manifest: {
      embeds: [
        chatEmbed(),
        {
          embedType: "pixel",
          name: "Pixel",
          kind: "GLOBAL_SCRIPT",
          position: "head",
          scriptUrl: "https://app.example/p.js",
        },
      ],
    },
  }),
);
const [inst] = await p.sql<{ id: string }[]>`
  select id from installations where app_id = ${app.id} and business_id = ${merchant.businessId}`;
const [shop] = await p.sql<{ slug: string }[]>`select slug from businesses where id = ${merchant.businessId}`;
const putEmbed = (type: string, body: unknown, token = merchant.token) =>
  p.request("PUT", `/merchant/installations/${inst.id}/embeds/${type}`, { token, body });

describe("a floating widget's placement", () => {
  it("starts at the manifest's corner, and takes the merchant's corner, offset and phones switch", async () => {
    const before = await putEmbed("chat", { enabled: true });
    expect(before.json.placement).toEqual({ corner: "bottom_right", offset: 0, showOnPhones: true });
    const moved = await putEmbed("chat", {
      enabled: true,
      placement: { corner: "bottom_left", offset: 96, showOnPhones: false },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.json.placement).toEqual({ corner: "bottom_left", offset: 96, showOnPhones: false });
    // switching it off and on keeps the place
    await putEmbed("chat", { enabled: false });
    expect((await putEmbed("chat", { enabled: true })).json.placement).toEqual({
      corner: "bottom_left",
      offset: 96,
      showOnPhones: false,
    });
    const page = await p.request("GET", `/s/${shop.slug}`);
    expect(page.text).toMatch(/class="embed-widget bottom_left not-on-phones"/);
    expect(page.text).toContain("--embed-offset:96px");
  });

  it("refuses a corner, offset or switch out of range, and a placement for a script", async () => {
    for (const placement of [
      { corner: "top_left", offset: 0, showOnPhones: true },
      { corner: "bottom_left", offset: 401, showOnPhones: true },
      { corner: "bottom_left", offset: -1, showOnPhones: true },
      { corner: "bottom_left", offset: 1.5, showOnPhones: true },
      { corner: "bottom_left", offset: 0 },
      { corner: "bottom_left", offset: 0, showOnPhones: true, zIndex: 9999 },
    ]) {
      const res = await putEmbed("chat", { enabled: true, placement });
      expect(res.status, JSON.stringify(placement)).toBe(400);
      expect(res.json.message).toMatch(/placement/);
    }
    const script = await putEmbed("pixel", {
      enabled: true,
      placement: { corner: "bottom_left", offset: 0, showOnPhones: true },
    });
    expect(script.status).toBe(400);
    expect(script.json.message).toBe("placement: only a floating widget has a corner and an offset");
    expect((await putEmbed("pixel", { enabled: true })).json.placement).toBeNull();
  });

  it("is another business's to change: 404", async () => {
    const res = await putEmbed(
      "chat",
      { enabled: true, placement: { corner: "bottom_left", offset: 0, showOnPhones: true } },
      other.token,
    );
    expect(res.status).toBe(404);
  });

  it("is set in the admin's embed card", async () => {
    const page = await browser.get(`/admin/apps/${inst.id}`);
    expect(page.html).toContain("Where it shows");
    const saved = await browser.post(`/admin/apps/${inst.id}`, {
      intent: "embed",
      embedType: "chat",
      enabled: "true",
      corner: "bottom_right",
      offset: "24",
      showOnPhones: "on",
    });
    expect(saved.status, saved.html.slice(0, 300)).toBe(302);
    const [row] =
      await p.sql`select placement from embed_settings where installation_id = ${inst.id} and embed_type = 'chat'`;
    expect(row.placement).toEqual({ corner: "bottom_right", offset: 24, showOnPhones: true });
    const bad = await browser.post(`/admin/apps/${inst.id}`, {
      intent: "embed",
      embedType: "chat",
      enabled: "true",
      corner: "bottom_right",
      offset: "twelve",
    });
    expect(bad.status).toBe(400);
    expect(bad.html).toContain("Offset must be a whole number of pixels");
  });
});
