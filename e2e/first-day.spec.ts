import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { test, expect, signIn, publishTestApp, installApp, chatWidgetEmbed } from "./helpers";
import { startAppServer } from "./app-server";
import { pngImage } from "../app/platform/testing/images";

/**
 * The merchant's first day (issue 40, decisions 060-061), in Chromium: a new shoe shop starts as
 * itself with a setup guide; a picture uploaded for a product shows on the storefront; the site
 * builder's image block starts with a picture the platform ships and takes an upload; a reply to a
 * shopper's review shows under it; a floating widget at 390 px never covers the header or the
 * checkout button.
 */

const PASSWORD = "first-day-password-1";

/** A new merchant, registered through the API (a shoe shop), signed in on the page. */
async function newShoeShop(page: Page) {
  const suffix = randomBytes(3).toString("hex");
  const email = `shoes-${suffix}@example.test`;
  const res = await page.request.post("/auth/register", {
    data: { email, password: PASSWORD, name: "Sam Cobbler", role: "MERCHANT", businessName: `Cobbler ${suffix}` },
  });
  expect(res.status(), await res.text()).toBe(201);
  await signIn(page, email, PASSWORD);
  return { name: `Cobbler ${suffix}`, slug: `cobbler-${suffix}`, email };
}

test("a new shoe shop: its own words, the setup guide, a product picture uploaded and seen on the storefront", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const shop = await newShoeShop(page);

  // the first admin screen guides the first steps
  await page.goto("/admin");
  const guide = page.getByTestId("setup-guide");
  await expect(guide.getByRole("heading", { name: "Set up your shop" })).toBeVisible();
  await expect(guide.getByTestId("setup-progress")).toHaveText("0 of 5 done");
  await page.screenshot({ path: ".data/e2e-results/first-day-guide-empty.png", fullPage: true });

  // the storefront speaks of products, not of a restaurant's menu
  await page.goto(`/s/${shop.slug}`);
  await expect(page.getByRole("navigation", { name: "Shop" }).getByRole("link", { name: "Products" })).toBeVisible();
  await expect(page.locator("body")).not.toContainText("Fresh food");
  await expect(page.locator("body")).not.toContainText("Menu");
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", new RegExp(shop.name));

  // an over-long address is refused with a message, never cut
  await page.goto("/admin/products/new");
  const longUrl = `https://cdn.example.com/${"a".repeat(2100)}.png`;
  await page.getByLabel("Name", { exact: true }).fill("Trail runner");
  await page.getByLabel("Price").fill("89.00");
  await page.getByLabel("Image URL").fill(longUrl);
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByTestId("error-imageUrl")).toContainText("at most 2,000 characters");
  await expect(page.getByLabel("Image URL")).toHaveValue(longUrl);

  // the picture uploaded with the form
  await page.getByLabel("Image URL").fill("");
  await page.getByLabel("Or upload a picture").setInputFiles({
    name: "trail-runner.png",
    mimeType: "image/png",
    buffer: pngImage(160, 120, [30, 110, 190]),
  });
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page).toHaveURL(/\/admin\/products\/prd_[a-z0-9]+\?saved=created/);
  // the saved product's page shows the stored picture's address (the new page may still be rendering)
  const stored = /^http:\/\/127\.0\.0\.1:\d+\/files\/file_[a-z0-9]+\.png$/;
  await expect(page.getByLabel("Image URL")).toHaveValue(stored);
  const imageUrl = await page.getByLabel("Image URL").inputValue();

  // the setup guide ticks the step
  await page.goto("/admin");
  await expect(page.getByTestId("setup-step-product")).toHaveClass(/is-done/);
  await expect(guide.getByTestId("setup-progress")).toHaveText("1 of 5 done");
  await page.screenshot({ path: ".data/e2e-results/first-day-guide-ticked.png", fullPage: true });

  // the shopper sees the picture on the product page, served from the storefront's origin
  await page.goto(`/s/${shop.slug}/products/trail-runner`);
  const img = page.locator(".sf-product-media img");
  await expect(img).toHaveAttribute("src", imageUrl);
  await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(160);
  await page.screenshot({ path: ".data/e2e-results/first-day-product-picture.png", fullPage: true });

  // the site builder's image block: a picture the platform ships, then an upload
  await page.goto("/admin/pages/home");
  await page.waitForLoadState("networkidle");
  await page.getByRole("button", { name: "Add a block" }).click();
  await page.getByRole("button", { name: /^▣?\s*Image/ }).click();
  const preview = page.frameLocator("iframe.sb-frame");
  const shipped = preview.locator(".sf-block-image img");
  await expect(shipped).toHaveAttribute("src", "/images/blocks/picture.svg");
  await expect.poll(() => shipped.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
  await page.screenshot({ path: ".data/e2e-results/first-day-builder-shipped.png" });
  const settings = page.getByRole("region", { name: "Settings: Image" });
  await settings.getByLabel("Upload a picture").setInputFiles({
    name: "banner.png",
    mimeType: "image/png",
    buffer: pngImage(600, 200, [200, 90, 40]),
  });
  await expect(settings.getByRole("status")).toContainText("Uploaded banner.png");
  await expect(shipped).toHaveAttribute("src", /\/files\/file_[a-z0-9]+\.png$/);
  await expect.poll(() => shipped.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(600);
  await page.screenshot({ path: ".data/e2e-results/first-day-builder-upload.png" });
  // an SVG is refused in words
  await settings.getByLabel("Upload a picture").setInputFiles({
    name: "logo.svg",
    mimeType: "image/svg+xml",
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
  });
  await expect(settings.getByRole("status")).toContainText("must be a PNG, JPEG, WebP or GIF");
  await page.getByRole("button", { name: "Save page" }).click();
  await expect(page.getByText("Page saved.")).toBeVisible();
  await page.screenshot({ path: ".data/e2e-results/first-day-builder-image.png", fullPage: true });
  await page.goto("/admin");
  await expect(page.getByTestId("setup-step-homePage")).toHaveClass(/is-done/);
});

test("a shopper's review, the merchant's reply, and the reply under the review on the product page", async ({
  page,
}) => {
  const shop = await newShoeShop(page);
  await page.goto("/admin/products/new");
  await page.getByLabel("Name", { exact: true }).fill("Canvas sneaker");
  await page.getByLabel("Price").fill("59.00");
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page).toHaveURL(/saved=created/);

  // a shopper reviews it
  await page.goto(`/s/${shop.slug}/products/canvas-sneaker`);
  await page.getByLabel("Your name").fill("Ada");
  await page.getByLabel("Rating").selectOption("4");
  await page.getByLabel(/Comment/).fill("Comfortable, runs a little small.");
  await page.getByRole("button", { name: /Post review|Submit review|Send review/ }).click();
  await expect(page.getByText("Thank you for your review!")).toBeVisible();

  // the merchant answers it in the admin
  await page.goto("/admin/reviews");
  const row = page.getByTestId("review-row").filter({ hasText: "Comfortable" });
  await row.getByText("Reply…").click();
  await row.getByLabel(/Your reply to Ada/).fill("Thank you, Ada! Try half a size up.");
  await row.getByRole("button", { name: "Publish reply" }).click();
  await expect(page.getByText("Your reply was published under the review.")).toBeVisible();
  await expect(page.getByTestId("admin-review-reply")).toContainText("Try half a size up.");
  await page.screenshot({ path: ".data/e2e-results/first-day-admin-reply.png", fullPage: true });

  // the shopper sees it under the review
  await page.goto(`/s/${shop.slug}/products/canvas-sneaker`);
  const reply = page.getByTestId("review-reply");
  await expect(reply).toContainText(`Reply from ${shop.name}`);
  await expect(reply).toContainText("Thank you, Ada! Try half a size up.");
  await page.screenshot({ path: ".data/e2e-results/first-day-storefront-reply.png", fullPage: true });
});

/** Whether two boxes share any area. */
const intersects = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test("a floating widget at 390 px: placed where the merchant chose, never over the header or the checkout button", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const appServer = await startAppServer();
  const app = await publishTestApp(request, "Chat Desk", appServer.url, {
    description: "A chat widget.",
    category: "communication",
    scopes: ["read_business"],
    manifest: { embeds: [chatWidgetEmbed(appServer.url)] },
  });
  const shop = await newShoeShop(page);
  await installApp(page, app.slug);
  await page.goto("/admin/products/new");
  await page.getByLabel("Name", { exact: true }).fill("Leather boot");
  await page.getByLabel("Price").fill("149.00");
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page).toHaveURL(/saved=created/);

  // the merchant moves the widget: bottom left, 24 px up
  await page.goto("/admin/apps");
  await page
    .getByRole("link", { name: new RegExp(app.name) })
    .first()
    .click();
  const placement = page.getByTestId("placement-chat");
  await placement.getByLabel("Corner").selectOption("bottom_left");
  await placement.getByLabel("Offset from the bottom (px)").fill("24");
  await placement.getByRole("button", { name: /Save where Chat shows/ }).click();
  await expect(page.getByText("Chat moved: your storefront shows it there now.")).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  // the cart with the product, its checkout button in view at every scroll position
  await page.goto(`/s/${shop.slug}/products/leather-boot`);
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByText("Added to your cart.")).toBeVisible();
  await page.goto(`/s/${shop.slug}/cart`);
  await expect(page.getByRole("link", { name: "Checkout" })).toBeVisible();
  const launcher = page.getByRole("button", { name: "Chat", exact: true });
  await expect(launcher).toBeVisible();
  const box = (await launcher.boundingBox())!;
  expect(box.x).toBeLessThan(100); // bottom left
  const header = page.locator(".sf-header");
  const checkout = page.getByRole("link", { name: "Checkout" });
  const maxScroll = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
  for (let y = 0; y <= maxScroll + 40; y += 40) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    if (!(await launcher.isVisible())) continue; // stood aside: nothing covered
    const l = (await launcher.boundingBox())!;
    const c = await checkout.boundingBox();
    const h = await header.boundingBox();
    if (c) expect(intersects(l, c), `launcher over the checkout button at scroll ${y}`).toBe(false);
    if (h) expect(intersects(l, h), `launcher over the header at scroll ${y}`).toBe(false);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: ".data/e2e-results/first-day-widget-cart-390.png" });

  // the checkout's place-order button, the same
  await page.goto(`/s/${shop.slug}/checkout`);
  const place = page.getByRole("button", { name: /Place order/ });
  const checkoutMax = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
  for (let y = 0; y <= checkoutMax + 40; y += 60) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    if (!(await launcher.isVisible())) continue;
    const l = (await launcher.boundingBox())!;
    const p = await place.boundingBox();
    if (p) expect(intersects(l, p), `launcher over "Place order" at scroll ${y}`).toBe(false);
  }
  await place.scrollIntoViewIfNeeded();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path: ".data/e2e-results/first-day-widget-checkout-390.png" });

  // opened on a phone, its sheet stops below the header
  await page.goto(`/s/${shop.slug}`);
  await launcher.click();
  const sheet = page.getByRole("dialog", { name: "Chat" });
  await expect(sheet).toBeVisible();
  const s = (await sheet.boundingBox())!;
  const h = (await header.boundingBox())!;
  expect(intersects(s, h), "the open widget over the header").toBe(false);
  await page.screenshot({ path: ".data/e2e-results/first-day-widget-open-390.png" });

  // hidden on phones when the merchant says so
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/admin/apps");
  await page
    .getByRole("link", { name: new RegExp(app.name) })
    .first()
    .click();
  await page.getByTestId("placement-chat").getByLabel("Show on phones").uncheck();
  await page
    .getByTestId("placement-chat")
    .getByRole("button", { name: /Save where Chat shows/ })
    .click();
  await expect(page.getByText("Chat moved")).toBeVisible();
  await page.goto(`/s/${shop.slug}`);
  await expect(launcher).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(launcher).toBeHidden();
  await appServer.close();
});
