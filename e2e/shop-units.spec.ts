/**
 * The merchant's first day (issue 40): sign-up asks which kind of account, a Danish shop types
 * prices with a decimal comma and reads its money and times in its own units, a pickup order is
 * collected in one click, bulk cancel asks first, and a shop set to Asia/Tokyo shows Tokyo time.
 */
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { test, expect, shots, signIn, signOut, signUp } from "./helpers";

test("sign-up chooses nothing in advance and refuses a form without a choice, in words", async ({ page }) => {
  await page.goto("/signup");
  await expect(page.getByRole("group", { name: "What do you want to do?" })).toBeVisible();
  await expect(page.getByLabel("Run a shop")).not.toBeChecked();
  await expect(page.getByLabel("Build apps")).not.toBeChecked();
  await page.getByLabel("Your name").fill("Undecided Person");
  await page.getByLabel("Email").fill(`undecided-${randomBytes(3).toString("hex")}@example.test`);
  await page.getByLabel(/^Password/).fill("a-long-undecided-pass");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("error-role")).toHaveText("Choose whether you want to run a shop or build apps");
  await expect(page).toHaveURL(/\/signup$/);
  await shots(page, "units-signup-no-role");
});

/** A shopper places a pickup order of one product, paying cash; its number. */
async function placePickupOrder(page: Page, slug: string, product: string, shopper: string) {
  await page.goto(`/s/${slug}/products`);
  await page.getByRole("button", { name: `Add to cart: ${product}` }).click();
  await expect(page.getByText("Added to your cart")).toBeVisible();
  await page.getByTestId("cart-link").click();
  await page.getByRole("link", { name: "Checkout", exact: true }).click();
  await page.getByLabel(/^Name/).fill(shopper);
  await page.getByLabel(/^Phone/).fill("+45 12 34 56 78");
  await page.locator("input[name=deliveryMethod][value=PICKUP]").check();
  await page.locator("input[name=paymentMethod][value=CASH]").check();
  await page.getByRole("button", { name: /place order/i }).click();
  await expect(page.getByRole("heading", { name: /Thank you/ })).toBeVisible();
  return (await page.getByRole("heading", { name: /Thank you/ }).textContent())!.match(/#(\d+)/)![1];
}

test("a Danish shop: 6,50 as a price, its money and times in its units; a pickup order collected in one click; bulk cancel asks; Tokyo time", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const suffix = randomBytes(3).toString("hex");
  const email = `dk-${suffix}@example.test`;
  const password = "danish-merchant-pass-1";
  const product = `Kanelsnegl ${suffix}`;

  await signUp(page, { role: "Run a shop", name: "Freja Jensen", email, password, business: `Bageri ${suffix}` });
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto("/admin/settings");
  await page.getByLabel(/^Currency/).fill("EUR");
  await page.getByLabel(/^Locale/).fill("da-DK");
  await page.getByLabel("Time zone").fill("Europe/Copenhagen");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Settings saved." })).toBeVisible();

  // the price as a Dane types it; refusals in the shop's units
  await page.goto("/admin/products/new");
  await expect(page.getByText("In EUR, e.g. 12,50")).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(product);
  await page.getByLabel(/^Price/).fill("-5");
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByTestId("error-price")).toHaveText("Price cannot be negative");
  await page.getByLabel(/^Price/).fill("1000000000");
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByTestId("error-price")).toHaveText(/^Price must be at most 1\.000\.000,00\s€$/);
  await shots(page, "units-price-refused");
  await page.getByLabel(/^Price/).fill("6,50");
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByText("The product was created.")).toBeVisible();
  await expect(page.getByLabel(/^Price/)).toHaveValue("6,50");
  const slug = new URL(
    (await page.getByRole("link", { name: "View storefront" }).getAttribute("href"))!,
  ).pathname.split("/")[2];
  await page.goto("/admin/products");
  await expect(page.getByText(/^6,50\s€$/).first()).toBeVisible();
  await signOut(page);

  // three shoppers order for pickup
  const numbers: string[] = [];
  for (const shopper of ["Anna", "Bo", "Carl"]) numbers.push(await placePickupOrder(page, slug, product, shopper));

  // the shop moves to Tokyo: the order page, its history and the dashboard follow
  await signIn(page, email, password);
  await page.goto("/admin/settings");
  await page.getByLabel("Time zone").fill("Asia/Tokyo");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Settings saved." })).toBeVisible();
  const tokyoDay = new Intl.DateTimeFormat("da-DK", { timeZone: "Asia/Tokyo", dateStyle: "medium" }).format(new Date());
  const tokyoHour = Number(
    new Intl.DateTimeFormat("en-GB", { timeZone: "Asia/Tokyo", hour: "2-digit", hourCycle: "h23" }).format(new Date()),
  );

  await page.goto("/admin/orders");
  await expect(page.getByText("Dates are in your business's time zone, Asia/Tokyo.")).toBeVisible();
  const first = page.getByTestId("order-row").filter({ hasText: `#${numbers[0]}` });
  await expect(first.getByTestId("order-row-status")).toHaveText("Pending");
  await expect(first.locator('td[data-label="Total"]')).toHaveText(/^6,50\s€$/);
  await expect(first.locator('td[data-label="Payment"]')).toContainText("Cash");
  await first.getByRole("link").click();

  // Tokyo time on the order page and its history, the zone said
  const placed = page.getByTestId("order-placed");
  await expect(placed).toContainText(tokyoDay);
  await expect(placed).toContainText("GMT+9");
  await expect(placed).toContainText("(Asia/Tokyo)");
  const shownHour = Number(/(\d{2})\.\d{2}/.exec((await placed.textContent()) ?? "")![1]);
  expect([tokyoHour, (tokyoHour + 23) % 24]).toContain(shownHour);
  await expect(page.getByText("Times in Asia/Tokyo")).toBeVisible();
  await expect(page.getByTestId("history-time").first()).toContainText("GMT+9");

  // a pickup order: collected in one click, never "out for delivery"
  await expect(page.getByRole("button", { name: /out for delivery/i })).toHaveCount(0);
  await page.getByRole("button", { name: "Mark as picked up" }).click();
  await expect(page.getByTestId("order-status")).toHaveText("Picked up");
  await expect(page.getByText("The order is now picked up.")).toBeVisible();
  await expect(page.getByTestId("history-row")).toHaveText([
    /Placed as pending/,
    /Pending → Confirmed/,
    /Confirmed → Preparing/,
    /Preparing → Ready for pickup/,
    /Ready for pickup → Picked up/,
  ]);
  await expect(page.locator("main")).not.toContainText("IN_DELIVERY");
  await expect(page.locator("main")).not.toContainText(/out for delivery/i);
  await shots(page, "units-order-picked-up");

  // the dashboard's day is Tokyo's
  await page.goto("/admin");
  await expect(page.getByText(`${tokyoDay} (Asia/Tokyo)`)).toBeVisible();
  await expect(page.getByText("Days in Asia/Tokyo")).toBeVisible();
  await shots(page, "units-dashboard-tokyo");

  // bulk cancel asks first, naming how many
  await page.goto("/admin/orders?status=PENDING");
  await page.waitForLoadState("networkidle");
  for (const n of numbers.slice(1)) await page.getByRole("checkbox", { name: `Select order #${n}` }).check();
  await page.getByLabel("Move selected to").selectOption("CANCELLED");
  await page.getByRole("button", { name: "Apply to selected" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Cancel 2 orders?" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("This cannot be undone.");
  await shots(page, "units-bulk-cancel-asks");
  // nothing moved yet
  await expect(page.getByTestId("order-row").filter({ hasText: `#${numbers[1]}` })).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel 2 orders" }).click();
  await expect(page.getByTestId("bulk-results").getByRole("status")).toHaveText(
    `2 orders moved to cancelled: #${numbers[2]}, #${numbers[1]}.`,
  );
});
