/**
 * Money by currency in a browser (issue 23): a merchant whose shop sells in Japanese yen (no minor
 * unit) types a price in yen, a shopper sees and pays it in yen, and the merchant's order page shows
 * the total in yen, not a hundredth of it.
 */
import { randomBytes } from "node:crypto";
import { test, expect, shots, signIn, signOut, signUp } from "./helpers";

test("a shop in yen: the price typed in yen is the price shown, paid and on the admin's order page", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const suffix = randomBytes(3).toString("hex");
  const shopName = `Yen Shop ${suffix}`;
  const product = `Matcha set ${suffix}`;

  // a merchant signs up and sets the shop's currency to JPY
  await signUp(page, {
    role: "Run a shop",
    name: "Haruto Sato",
    email: `yen-${suffix}@example.test`,
    password: "yen-merchant-pass-1",
    business: shopName,
  });
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto("/admin/settings");
  await page.getByLabel(/^Currency/).fill("JPY");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Settings saved." })).toBeVisible();
  await expect(page.getByLabel(/^Currency/)).toHaveValue("JPY");

  // … adds a product priced in whole yen: a fraction of a yen is refused
  await page.goto("/admin/products/new");
  await expect(page.getByText("In JPY, e.g. 1500")).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(product);
  await page.getByLabel(/^Price/).fill("1500.5");
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByTestId("error-price")).toHaveText("Price must be a whole number in JPY, like 1500");
  await page.getByLabel(/^Price/).fill("1500");
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByText("The product was created.")).toBeVisible();
  await expect(page.getByLabel(/^Price/)).toHaveValue("1500");
  const slug = new URL(
    (await page.getByRole("link", { name: "View storefront" }).getAttribute("href"))!,
  ).pathname.split("/")[2];
  await signOut(page);

  // a shopper buys two at ¥1,500
  await page.goto(`/s/${slug}/products`);
  await expect(page.getByText("¥1,500").first()).toBeVisible();
  await page.getByRole("button", { name: `Add to cart: ${product}` }).click();
  await expect(page.getByText("Added to your cart")).toBeVisible();
  await page.getByRole("button", { name: `Add to cart: ${product}` }).click();
  await page.getByTestId("cart-link").click();
  await expect(page.getByLabel(`Quantity of ${product}`)).toHaveValue("2");
  await page.getByRole("link", { name: "Checkout", exact: true }).click();
  await page.getByLabel(/^Name/).fill("Yui Tanaka");
  await page.getByLabel(/^Phone/).fill("+81 3 0000 0000");
  await page.locator("input[name=deliveryMethod][value=PICKUP]").check();
  await page.locator("input[name=paymentMethod][value=CASH]").check();
  await page.getByRole("button", { name: /place order/i }).click();
  await expect(page.getByRole("heading", { name: /Thank you/ })).toBeVisible();
  await expect(page.locator(".sf-grand-total")).toContainText("¥3,000");
  const orderNumber = (await page.getByRole("heading", { name: /Thank you/ }).textContent())!.match(/#(\d+)/)![1];
  await shots(page, "money-jpy-confirmation", { reload: true });

  // the merchant's order list and order page: ¥3,000, not ¥30
  await signIn(page, `yen-${suffix}@example.test`, "yen-merchant-pass-1");
  await page.goto("/admin/orders");
  const row = page.getByTestId("order-row").filter({ hasText: `#${orderNumber}` });
  await expect(row).toContainText("¥3,000");
  await row
    .getByRole("link", { name: new RegExp(orderNumber) })
    .first()
    .click();
  await expect(page.getByTestId("order-total")).toHaveText("¥3,000");
  await expect(page.getByRole("cell", { name: "¥1,500" }).first()).toBeVisible();
  await shots(page, "money-jpy-admin-order", { reload: true });
});
