import { test, expect } from "./helpers";

test("a shopper browses the Demo Bistro, fills a cart and places a pickup order", async ({ page }) => {
  // no script errors or hydration mismatches (missing demo product pictures aside)
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) problems.push(m.text());
  });
  await page.goto("/s/demo-bistro");
  const cart = page.getByTestId("cart-link");
  const menu = page.getByRole("navigation", { name: "Shop" }).getByRole("link", { name: "Menu" });
  await expect(page.getByRole("link", { name: "Demo Bistro" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Welcome to Demo Bistro" })).toBeVisible();
  await expect(cart).toHaveText("Cart (0)");
  // the platform's own header is not part of a shop
  await expect(page.getByRole("link", { name: "Marketplace" })).toHaveCount(0);
  await page.screenshot({ path: ".data/e2e-results/storefront-home.png", fullPage: true });

  // the menu, grouped by category
  await menu.click();
  await expect(page.getByRole("heading", { level: 1, name: "Menu" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Pizza" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Desserts" })).toBeVisible();

  // a product page: add one
  await page.getByRole("link", { name: "Margherita Pizza" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Margherita Pizza" })).toBeVisible();
  await expect(page.locator(".sf-product-price")).toHaveText("$11.50");
  await expect(page.getByRole("heading", { name: "Reviews" })).toBeVisible();
  await page.screenshot({ path: ".data/e2e-results/storefront-product.png", fullPage: true });
  await page.getByLabel("Quantity").fill("1");
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(cart).toHaveText("Cart (1)");
  await expect(page.getByRole("status")).toContainText("Added to your cart");

  // a second product straight from the menu
  await menu.click();
  await page.getByRole("button", { name: "Add to cart: Tiramisu" }).click();
  await expect(cart).toHaveText("Cart (2)");

  // the cart: change a quantity
  await cart.click();
  await expect(page.getByRole("heading", { level: 1, name: "Your cart" })).toBeVisible();
  await page.getByLabel("Quantity of Tiramisu").fill("3");
  await page.getByRole("button", { name: "Update Tiramisu" }).click();
  await expect(cart).toHaveText("Cart (4)");
  await expect(page.getByTestId("cart-subtotal")).toHaveText("$32.50"); // 11.50 + 3 × 7.00

  // checkout: pickup, cash
  await page.getByRole("link", { name: "Checkout" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
  await page.getByLabel("Name").fill("Paula Shopper");
  await page.getByLabel("Phone").fill("+1 555 0199");
  await page.getByRole("radio", { name: /^Pickup/ }).check();
  await page.getByRole("radio", { name: /^Cash on delivery\/pickup/ }).check();
  await page.getByLabel(/^Notes/).fill("No onions, please");
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: ".data/e2e-results/storefront-checkout.png", fullPage: true });
  await page.getByRole("button", { name: "Place order" }).click();

  const thanks = page.getByRole("heading", { level: 1, name: /^Thank you! Order #\d+$/ });
  await expect(thanks).toBeVisible();
  const orderNumber = (await thanks.textContent())!.match(/#(\d+)/)![1];
  expect(Number(orderNumber)).toBeGreaterThan(1030);
  await expect(page).toHaveURL(/\/s\/demo-bistro\/orders\/ord_[a-z0-9]+\?t=[0-9a-f]{32}$/);
  await expect(page.getByTestId("order-total")).toHaveText("$32.50");
  await expect(page.getByText("No onions, please")).toBeVisible();
  await expect(cart).toHaveText("Cart (0)");
  await page.screenshot({ path: ".data/e2e-results/storefront-confirmation.png", fullPage: true });

  // the link works only with its token
  const url = new URL(page.url());
  const res = await page.goto(url.pathname + "?t=" + "0".repeat(32));
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  expect(problems.filter((p) => !p.includes("404"))).toEqual([]);
});

test("the storefront works without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/s/demo-bistro/products/lasagna");
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByTestId("cart-link")).toHaveText("Cart (1)");
  await page.getByTestId("cart-link").click();
  await page.getByRole("link", { name: "Checkout" }).click();
  await page.getByLabel("Name").fill("No Script");
  await page.getByLabel("Phone").fill("555 0123");
  await page.getByRole("radio", { name: /^Delivery/ }).check();
  await page.getByRole("button", { name: "Place order" }).click();
  // delivery needs an address: the error is shown and the values are kept
  await expect(page.getByRole("alert")).toContainText("Enter the delivery address");
  await expect(page.getByLabel("Name")).toHaveValue("No Script");
  await page.getByLabel("Delivery address").fill("12 Market Street");
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /^Thank you! Order #\d+$/ })).toBeVisible();
  await expect(page.getByText("12 Market Street")).toBeVisible();
  await context.close();
});
