import { type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { test, expect, signIn, DEMO } from "./helpers";

/** Opens a page and waits until it is hydrated, so that clicks go through the client router. */
async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
}

test("the merchant runs the shop from the admin: dashboard, products, orders, reviews, settings", async ({ page }) => {
  await signIn(page, DEMO.merchant.email, DEMO.merchant.password);

  // dashboard: figures and the 30-day chart
  await open(page, "/admin");
  await expect(page.getByRole("heading", { name: "Demo Bistro", level: 1 })).toBeVisible();
  await expect(page.getByText("Revenue, 30 days")).toBeVisible();
  const chart = page.locator('svg[role="img"]').first();
  await expect(chart).toBeVisible();
  await expect(chart).toHaveAttribute("aria-label", /Revenue per day/);
  await expect(page.locator(".bar-chart-bar")).toHaveCount(60);
  await expect(page.getByRole("heading", { name: "Top products" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Browse the marketplace" })).toBeVisible();
  await page.screenshot({ path: ".data/e2e-results/admin-dashboard.png", fullPage: true });

  // products: create, find, edit, delete
  const name = `Test Pie ${randomBytes(3).toString("hex")}`;
  const sidebar = page.getByRole("complementary", { name: "Admin navigation" });
  for (const [label, href] of [
    ["Dashboard", "/admin"],
    ["Orders", "/admin/orders"],
    ["Products", "/admin/products"],
    ["Reviews", "/admin/reviews"],
    ["Apps", "/admin/apps"],
    ["Settings", "/admin/settings"],
  ])
    await expect(sidebar.getByRole("link", { name: label })).toHaveAttribute("href", href);
  await open(page, "/admin/products");
  await expect(page.getByRole("heading", { name: "Products", level: 1 })).toBeVisible();
  await expect(page.getByTestId("product-row")).toHaveCount(20);
  await page.getByRole("link", { name: "Add product" }).click();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel(/^Price/).fill("abc");
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByRole("alert")).toContainText("Price must be a number like 12.50");
  await expect(page.getByTestId("error-price")).toHaveText("Price must be a number like 12.50");
  await page.getByLabel(/^Price/).fill("7.25");
  await page.getByLabel("Description").fill("Flaky crust, seasonal fruit.");
  await page.getByLabel("Category").fill("Desserts");
  await page.getByLabel("Track stock").check();
  await page.getByLabel("Stock", { exact: true }).fill("3");
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByText("The product was created.")).toBeVisible();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();

  await open(page, "/admin/products");
  await page.getByRole("searchbox", { name: "Search products" }).fill(name.toUpperCase());
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\?q=/);
  const row = page.getByTestId("product-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(name);
  await expect(row).toContainText("$7.25");
  await expect(row.locator(".badge.warn")).toHaveText("low");
  await page.screenshot({ path: ".data/e2e-results/admin-products.png", fullPage: true });

  await row.getByRole("link", { name: `Edit ${name}` }).click();
  await expect(page.getByLabel(/^Price/)).toHaveValue("7.25");
  await expect(page.getByLabel("Stock", { exact: true })).toHaveValue("3");
  await page.getByLabel(/^Price/).fill("8.50");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Changes saved.")).toBeVisible();
  await expect(page.getByText(/\$8\.50 · last saved/)).toBeVisible();
  await expect(page.getByLabel(/^Price/)).toHaveValue("8.50");
  await page.screenshot({ path: ".data/e2e-results/admin-product-edit.png", fullPage: true });

  await page.getByText(`Delete ${name}…`).click();
  await page.getByRole("button", { name: "Delete product" }).click();
  await expect(page).toHaveURL(/\/admin\/products\?saved=deleted$/);
  await expect(page.getByText("The product was deleted.")).toBeVisible();
  await open(page, `/admin/products?q=${encodeURIComponent(name)}`);
  await expect(page.getByText(`No products match "${name}"`)).toBeVisible();

  // orders: filter to PENDING, confirm one
  await open(page, "/admin/orders");
  await expect(page.getByTestId("order-row")).toHaveCount(20);
  await page
    .getByRole("navigation", { name: "Filter by status" })
    .getByRole("link", { name: /^Pending/ })
    .click();
  await expect(page).toHaveURL(/status=PENDING/);
  await page.screenshot({ path: ".data/e2e-results/admin-orders.png", fullPage: true });
  const pendingRows = page.getByTestId("order-row");
  await expect(pendingRows.first()).toBeVisible();
  for (const badge of await pendingRows.locator(".badge.warn").allTextContents()) expect(badge).toBe("Pending");
  await pendingRows.first().getByRole("link").click();
  await expect(page.getByTestId("order-status")).toHaveText("Pending");
  await expect(page.getByRole("heading", { name: "Items" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Move to delivered" })).toHaveCount(0);
  await page.getByRole("button", { name: "Move to confirmed" }).click();
  await expect(page.getByTestId("order-status")).toHaveText("Confirmed");
  await expect(page.getByText("The order is now confirmed.")).toBeVisible();
  const lastChange = page.getByTestId("history-row").last();
  await expect(lastChange).toContainText("Pending → Confirmed");
  await expect(lastChange).toContainText("merchant");
  await expect(page.getByRole("button", { name: "Move to preparing" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Move to confirmed" })).toHaveCount(0);
  await page.screenshot({ path: ".data/e2e-results/admin-order.png", fullPage: true });

  // reviews: delete one
  await open(page, "/admin/reviews");
  const countText = (await page.getByText(/^\d+ reviews?, newest first$/).textContent()) ?? "";
  const before = Number(countText.split(" ")[0]);
  expect(before).toBeGreaterThan(0);
  const firstReview = page.getByTestId("review-row").first();
  const author = (await firstReview.locator("td").nth(2).textContent()) ?? "";
  await firstReview.getByText("Delete…").click();
  await expect(firstReview.getByText(`Delete the review by ${author}?`)).toBeVisible();
  await firstReview.getByRole("button", { name: "Delete review" }).click();
  await expect(page.getByText("The review was deleted.")).toBeVisible();
  await expect(page.getByText(`${before - 1} ${before - 1 === 1 ? "review" : "reviews"}, newest first`)).toBeVisible();
  await page.screenshot({ path: ".data/e2e-results/admin-reviews.png", fullPage: true });

  // settings: a bad time zone is refused, a new phone number is saved
  await open(page, "/admin/settings");
  await expect(page.getByLabel("Business name")).toHaveValue("Demo Bistro");
  const phone = `+1 555 01${(randomBytes(1)[0] % 90) + 10}`;
  await page.getByLabel("Time zone").fill("Mars/Base");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("alert")).toContainText("Time zone must be an IANA time zone");
  await expect(page.getByTestId("error-timezone")).toHaveText(
    "Time zone must be an IANA time zone such as Europe/Paris",
  );
  await page.screenshot({ path: ".data/e2e-results/admin-settings.png", fullPage: true });
  await page.getByLabel("Time zone").fill("UTC");
  await page.getByLabel("Phone").fill(phone);
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Phone")).toHaveValue(phone);
});

test("admin pages answer 404 for records of no one and work without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/login");
  await page.locator('input[name="email"]').fill(DEMO.merchant.email);
  await page.locator('input[name="password"]').fill(DEMO.merchant.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();

  const missing = await page.goto("/admin/products/prd_does_not_exist");
  expect(missing?.status()).toBe(404);
  await expect(page.getByText("Product not found")).toBeVisible();
  expect((await page.goto("/admin/orders/ord_does_not_exist"))?.status()).toBe(404);

  // a plain form post creates a product and redirects with ?saved=
  await page.goto("/admin/products/new");
  const name = `No JS Cake ${randomBytes(3).toString("hex")}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel(/^Price/).fill("4");
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page).toHaveURL(/saved=created/);
  await expect(page.getByText("The product was created.")).toBeVisible();
  await page.getByText(`Delete ${name}…`).click();
  await page.getByRole("button", { name: "Delete product" }).click();
  await expect(page.getByText("The product was deleted.")).toBeVisible();
  await context.close();
});
