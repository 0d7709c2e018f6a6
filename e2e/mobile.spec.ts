/**
 * The admin, the developer portal and the review console on a phone (390x844): no page is wider
 * than the screen, controls are at least 44px, lists are stacked cards, the navigation is a drawer
 * that keeps focus inside, closes on Escape and on a followed link. axe-core checks every page at
 * that width (decision 015).
 */
import { type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { test, expect, apiToken, expectAccessible, signIn, DEMO, publishTestApp, createApp } from "./helpers";
import { startAppServer } from "./app-server";

test.use({ viewport: { width: 390, height: 844 } });

/** Controls a finger has to hit; links inside running text are exempt (WCAG 2.5.8). */
const TARGETS = [
  ".area button",
  ".area .button",
  ".area .pill",
  ".area summary",
  ".area select",
  ".sidebar a",
  ".topbar a",
  ".topbar button",
  '.area input:not([type="hidden"]):not([type="checkbox"]):not([type="radio"]):not([type="color"])',
  ".area-main header > p:first-child > a",
  ".doc-toc-phone a",
].join(", ");

/** Opens `path`, then: nothing wider than the screen, every control at least 44x44, axe-core clean. */
async function visit(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBeLessThan(400);
  await page.waitForLoadState("networkidle");
  await expect(page.locator("main h1").first()).toBeVisible();
  // a title that names the page and its area ("Orders · Admin")
  expect(await page.title(), path).toMatch(/\S · \S/);
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${path} is ${scrollWidth}px wide on a ${innerWidth}px screen`).toBeLessThanOrEqual(innerWidth);
  const small = await page.locator(TARGETS).evaluateAll((els) =>
    els
      .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden")
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.height < 43.5 || box.width < 43.5)
      .map(
        ({ el, box }) =>
          `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? "").trim().slice(0, 30)}" ${Math.round(box.width)}x${Math.round(box.height)}`,
      ),
  );
  expect(small, `tap targets under 44px on ${path}`).toEqual([]);
  await expectAccessible(page);
}

/** The drawer: closed, opened by the menu button, focus kept inside, Escape closes it. */
async function checkDrawer(page: Page, area: string, current: string) {
  const menu = page.getByRole("button", { name: "Menu", exact: true });
  const drawer = page.locator("#area-drawer");
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(drawer).toBeHidden();

  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  const dialog = page.getByRole("dialog", { name: `${area} navigation` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Close menu" })).toBeFocused();
  // the current page is marked
  await expect(dialog.locator('a[aria-current="page"]')).toHaveCount(1);
  await expect(dialog.locator('a[aria-current="page"]')).toContainText(current);
  // it slides in from the left and leaves a strip of the (dimmed) page visible
  await expect.poll(async () => (await dialog.boundingBox())?.x).toBe(0);
  expect((await dialog.boundingBox())!.width).toBeLessThan(390);
  await expect(page.locator(".drawer-backdrop")).toBeVisible();
  await expectAccessible(page);

  // Tab goes round the drawer's controls and never reaches the page behind it, either way
  const count = await dialog.locator("a[href], button").count();
  for (let i = 0; i < count + 2; i++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((d) => d.contains(document.activeElement)), `focus after ${i + 1} Tab`).toBe(true);
  }
  for (let i = 0; i < count + 2; i++) {
    await page.keyboard.press("Shift+Tab");
    expect(await dialog.evaluate((d) => d.contains(document.activeElement)), `focus after ${i + 1} Shift+Tab`).toBe(
      true,
    );
  }

  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await expect(menu).toBeFocused();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
}

/** Follows a link in the drawer: the drawer closes, the page changes, focus starts on the page. */
async function navigateWithDrawer(page: Page, area: string, link: string, url: RegExp) {
  await page.getByRole("button", { name: "Menu", exact: true }).click();
  await page
    .getByRole("dialog", { name: `${area} navigation` })
    .getByRole("link", { name: link, exact: true })
    .click();
  await expect(page).toHaveURL(url);
  await expect(page.locator("#area-drawer")).toBeHidden();
  await expect(page.locator("main#main")).toBeFocused();
  await expect(page.locator(".area-bar")).toContainText(link);
}

/** A table of the page is a list of cards: rows are boxes, each value with its column's name. */
async function expectCards(page: Page, rows: string, label: string) {
  const row = page.locator(rows).first();
  await expect(row).toBeVisible();
  expect(await row.evaluate((tr) => getComputedStyle(tr).display)).toBe("grid");
  // the column heads are there for screen readers only (a 1px clipped box)
  expect((await row.locator("xpath=ancestor::table/thead").boundingBox())?.height).toBeLessThanOrEqual(1);
  const cell = row.locator(`td[data-label="${label}"]`);
  await expect(cell).toBeVisible();
  expect(await cell.evaluate((td) => getComputedStyle(td, "::before").content)).toBe(`"${label}"`);
}

test("the merchant's admin on a phone: drawer, cards, every page fits", async ({ page, request }) => {
  test.setTimeout(180_000);
  // an installed app with an admin page, so that its settings and its page are visited too
  const appServer = await startAppServer();
  const app = await publishTestApp(request, "Phone Stars", appServer.url, (suffix) => ({
    description: "An admin page and a widget, seen on a phone.",
    category: "marketing",
    scopes: ["read_business"],
    manifest: { adminPages: [{ pageId: "stats", title: `Stars ${suffix}`, renderUrl: `${appServer.url}/admin` }] },
  }));
  const { suffix } = app;

  await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
  // marketplace and consent screen at phone width too
  await visit(page, `/marketplace/${app.slug}`);
  await page.getByRole("link", { name: "Install" }).click();
  await expect(page.getByRole("heading", { name: `Install ${app.name}` })).toBeVisible();
  const { scrollWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await page.getByRole("button", { name: "Install" }).click();
  await expect(page.getByRole("heading", { name: "Connected to the app" })).toBeVisible();

  await visit(page, "/admin");
  await expect(page.locator(".area-bar")).toContainText("Admin · Dashboard");
  // the menu is in the drawer, not above the page: the page's heading is near the top
  expect((await page.getByRole("heading", { level: 1 }).boundingBox())!.y).toBeLessThan(200);
  await page.screenshot({ path: ".data/e2e-results/admin-phone.png" });
  await checkDrawer(page, "Admin", "Dashboard");
  await page.getByRole("button", { name: "Menu", exact: true }).click();
  await expect.poll(async () => (await page.getByRole("dialog").boundingBox())?.x).toBe(0);
  await page.screenshot({ path: ".data/e2e-results/admin-phone-menu.png" });
  await page.getByRole("button", { name: "Close menu" }).click();
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(page.getByRole("button", { name: "Menu", exact: true })).toBeFocused();

  // through the drawer to the orders: a list of cards
  await navigateWithDrawer(page, "Admin", "Orders", /\/admin\/orders$/);
  await expectCards(page, '[data-testid="order-row"]', "Total");
  await page.screenshot({ path: ".data/e2e-results/admin-orders-phone.png", fullPage: true });
  const order = await page.locator('[data-testid="order-row"] a').first().getAttribute("href");

  await navigateWithDrawer(page, "Admin", "Products", /\/admin\/products$/);
  await expectCards(page, '[data-testid="product-row"]', "Price");
  const product = await page.locator('[data-testid="product-row"] a').first().getAttribute("href");

  await navigateWithDrawer(page, "Admin", "Reviews", /\/admin\/reviews$/);
  await expectCards(page, '[data-testid="review-row"]', "Rating");

  // the app's admin page is in the drawer's "App pages"
  await page.getByRole("button", { name: "Menu", exact: true }).click();
  const appPage = page
    .getByRole("dialog")
    .getByRole("navigation", { name: "App pages" })
    .getByRole("link", { name: `Stars ${suffix}` });
  const appPageHref = (await appPage.getAttribute("href"))!;
  await appPage.click();
  await expect(page).toHaveURL(new RegExp(appPageHref));
  await expect(page.locator("#area-drawer")).toBeHidden();
  const installationId = appPageHref.split("/")[3];

  for (const path of [
    "/admin",
    "/admin/orders",
    order!,
    "/admin/orders?status=PENDING",
    "/admin/products",
    "/admin/products/new",
    product!,
    "/admin/reviews",
    "/admin/pages",
    "/admin/pages/home",
    "/admin/apps",
    `/admin/apps/${installationId}`,
    appPageHref,
    "/admin/settings",
    "/admin/privacy",
    "/admin/activity",
    "/admin/activity?what=account.signed_in",
  ])
    await visit(page, path);
  await appServer.close();
});

test("the developer portal on a phone: every page of an app fits and the drawer works", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, DEMO.developer.email, DEMO.developer.password);
  await visit(page, "/portal");
  await checkDrawer(page, "Developer portal", "Overview");
  await navigateWithDrawer(page, "Developer portal", "My apps", /\/portal\/apps$/);
  await expectCards(page, "main table tbody tr", "Status");
  await page.getByRole("link", { name: "Loyalty Stars" }).click();
  await expect(page.getByRole("heading", { name: "Loyalty Stars", level: 1 })).toBeVisible();
  const appPath = new URL(page.url()).pathname;
  // the drawer marks the section an app's page belongs to
  await expect(page.locator(".area-bar")).toContainText("My apps");

  await visit(page, appPath);
  await page.screenshot({ path: ".data/e2e-results/portal-app-phone.png", fullPage: true });
  for (const sub of [
    "manifest",
    "credentials",
    "webhooks",
    "privacy-requests",
    "hooks",
    "analytics",
    "preview",
    "activity",
  ])
    await visit(page, `${appPath}/${sub}`);
  for (const path of [
    "/portal/apps",
    "/portal/apps/new",
    "/portal/docs",
    "/portal/docs/getting-started",
    "/portal/docs/webhooks",
    "/portal/docs/api",
    "/portal/docs/platform-api",
  ])
    await visit(page, path);

  // a guide's contents are folded on a phone; opened, each entry is a finger's height and leads to its section
  await visit(page, "/portal/docs/webhooks");
  const contents = page.locator(".doc-toc-phone");
  await expect(contents.getByRole("link", { name: "Retries" })).toBeHidden();
  await contents.getByText("On this page").click();
  const retries = contents.getByRole("link", { name: "Retries" });
  expect((await retries.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await retries.click();
  await expect(page).toHaveURL(/#retries$/);
  await expect(page.getByRole("heading", { name: "Retries", level: 2 })).toBeInViewport();
});

test("the review console on a phone: the queue and an app under review fit", async ({ page, request }) => {
  // an app waiting for review
  const token = await apiToken(request, DEMO.developer.email, DEMO.developer.password);
  const suffix = randomBytes(3).toString("hex");
  const { id } = await createApp(request, token, {
    name: `Phone Review ${suffix}`,
    slug: `phone-review-${suffix}`,
    description: "Waiting for a reviewer with a phone.",
    category: "marketing",
    scopes: ["read_orders", "read_business"],
    redirectUrl: "https://example.com/callback",
  });
  expect(
    (await request.post(`/developer/apps/${id}/submit`, { headers: { Authorization: `Bearer ${token}` } })).status(),
  ).toBe(200);

  await signIn(page, DEMO.reviewer.email, DEMO.reviewer.password);
  await visit(page, "/reviewer");
  await checkDrawer(page, "Review console", "Review queue");
  await expectCards(page, "main table tbody tr", "Submitted");
  await page.getByRole("link", { name: `Phone Review ${suffix}` }).click();
  await expect(page.getByRole("heading", { name: `Phone Review ${suffix}`, level: 1 })).toBeVisible();
  await visit(page, `/reviewer/apps/${id}`);
  await navigateWithDrawer(page, "Review console", "Review queue", /\/reviewer$/);
});

test("at 1280px the sidebar is beside the page and there is no menu button", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
  await page.goto("/admin");
  await expect(page.getByRole("button", { name: "Menu", exact: true })).toBeHidden();
  const sidebar = page.getByRole("complementary", { name: "Admin navigation" });
  await expect(sidebar.getByRole("link", { name: "Orders" })).toBeVisible();
  expect((await sidebar.boundingBox())!.width).toBe(230);
  await expect(sidebar.locator('a[aria-current="page"]')).toContainText("Dashboard");
  // tables stay tables
  await page.goto("/admin/orders");
  expect(
    await page
      .locator('[data-testid="order-row"]')
      .first()
      .evaluate((tr) => getComputedStyle(tr).display),
  ).toBe("table-row");
  await page.screenshot({ path: ".data/e2e-results/admin-dashboard-desktop.png" });
  // the skip link is the first thing Tab reaches and moves focus to the page
  await page.goto("/admin");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#main")).toBeFocused();
});
