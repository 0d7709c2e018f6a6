import type { Page } from "@playwright/test";
import { test, expect, signIn, signOut, DEMO, shots } from "./helpers";

/**
 * The demo marketplace's apps are real (issue 40, decision 062): a newcomer installs one from the
 * marketplace and lands on its working admin page, served by the demo apps server on its own origin;
 * the demo shop's Billing shows a paid app with usage and invoices (issue 39).
 */
test("a merchant installs a demo app from the marketplace and lands on its admin page", async ({ page }) => {
  await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
  await page.goto("/marketplace");
  await page
    .getByRole("link", { name: /Sales Pulse/ })
    .first()
    .click();
  await page.getByRole("link", { name: "Install" }).click();
  await expect(page.getByRole("heading", { name: "Install Sales Pulse" })).toBeVisible();
  await page.getByRole("button", { name: "Install" }).click();

  // through the app's own server (another origin) and back into the admin, on the app's page
  await expect(page).toHaveURL(/\/admin\/ext\/inst_[^/]+\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Sales Pulse", level: 1 })).toBeVisible();
  const app = page.frameLocator("iframe.app-page-frame");
  await expect(app.getByRole("status")).toHaveText("Your shop's pulse, from the platform's figures.");
  await expect(app.getByText("Orders in the last 30 days")).toBeVisible();
  await expect(app.getByRole("heading", { name: "Best sellers" })).toBeVisible();
  const src = await page.locator("iframe.app-page-frame").getAttribute("src");
  expect(new URL(src!).port).toBe(String(Number(process.env.E2E_PORT ?? 3199) + 100));
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: ".data/e2e-results/demo-app-admin-page.png" });

  // a paid app: Ready Text's subscription, this period's texts and the past invoices
  await page.goto("/admin/billing");
  await expect(page.getByText("Text Pro").first()).toBeVisible();
  await expect(page.getByText("Ready Text").first()).toBeVisible();
  await expect(page.getByText("Text Pro: usage").first()).toBeVisible();
  await shots(page, "demo-billing");
  await signOut(page);
});

/** Whether the glyph renders as the font's own picture, not as the missing-glyph box (compared on a canvas). */
async function glyphsMissing(page: Page, selector: string) {
  return page.locator(selector).evaluateAll((nodes) => {
    const draw = (text: string, font: string) => {
      const canvas = document.createElement("canvas");
      canvas.width = canvas.height = 48;
      const c = canvas.getContext("2d")!;
      c.font = font;
      c.fillText(text, 4, 36);
      return canvas.toDataURL();
    };
    return nodes
      .map((n) => {
        const style = getComputedStyle(n);
        const font = `${style.fontSize} ${style.fontFamily}`;
        const text = (n.textContent ?? "").trim();
        // a code point no font covers: what a missing glyph looks like in this font stack
        return draw(text, font) === draw("\u{10FFFD}", font) ? text : null;
      })
      .filter(Boolean);
  });
}

test("the portal's menu icons, 'Open sandbox admin' too, are drawn by the page's fonts", async ({ page }) => {
  await signIn(page, DEMO.developer.email, DEMO.developer.password);
  await page.goto("/portal");
  await expect(page.getByRole("link", { name: "Open sandbox admin" }).first()).toBeVisible();
  expect(await glyphsMissing(page, ".nav-icon")).toEqual([]);
  await page
    .locator(".nav-icon")
    .last()
    .locator("xpath=ancestor::nav[1]")
    .screenshot({ path: ".data/e2e-results/portal-menu.png" });
  await page.goto("/admin");
  expect(await glyphsMissing(page, ".nav-icon")).toEqual([]);
  await signOut(page);
});
