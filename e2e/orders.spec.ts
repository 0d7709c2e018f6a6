import { type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import {
  test,
  expect,
  apiToken,
  signIn,
  DEMO,
  publishTestApp,
  consentToInstall,
  createApp,
  shots,
  scriptEmbed,
} from "./helpers";
import { startAppServer } from "./app-server";

/** Opens a page and waits until it is hydrated, so that clicks go through the client router. */
async function open(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState("networkidle");
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** "Nov 20, 2026, 3:04 PM" (the list's dates, in the business's time zone) → "2026-11-20" */
function isoDay(text: string): string {
  const m = /^([A-Z][a-z]{2}) (\d{1,2}), (\d{4})/.exec(text.trim());
  if (!m) throw new Error(`not a list date: ${text}`);
  return `${m[3]}-${String(MONTHS.indexOf(m[1]) + 1).padStart(2, "0")}-${m[2].padStart(2, "0")}`;
}
const money = (text: string) => Number(text.replace(/[^0-9.]/g, ""));

test("a merchant searches, filters, sorts, bulk-moves and exports orders, with every state in the address", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
  await open(page, "/admin/orders");
  const rows = page.getByTestId("order-row");
  await expect(rows).toHaveCount(20);
  const search = page.getByRole("searchbox", { name: "Search" });

  // search by customer name, then by order number; the back button brings the first search back
  await search.fill("ana silva");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/\?q=ana\+silva$/);
  await expect(rows.first()).toBeVisible();
  const anaCount = await rows.count();
  expect(anaCount).toBeGreaterThan(0);
  expect(anaCount).toBeLessThan(20);
  for (const row of await rows.all()) await expect(row).toContainText("Ana Silva");
  await search.fill("#1005");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/q=%231005/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByRole("link", { name: "Order #1005" })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\?q=ana\+silva$/);
  await expect(rows).toHaveCount(anaCount);
  await expect(search).toHaveValue("ana silva");

  // nothing matches: an empty state with a way out
  await open(page, "/admin/orders?q=nobody-ordered-this");
  await expect(page.getByText("No orders match")).toBeVisible();
  await page.getByRole("link", { name: "Clear filters" }).last().click();
  await expect(page).toHaveURL(/\/admin\/orders$/);
  await expect(rows).toHaveCount(20);

  // a date range of one day, the day of the third-oldest order (dates are in the business's zone; the
  // demo's past days have a few orders each, while today has those every other spec placed)
  await open(page, "/admin/orders?sort=oldest");
  const day = isoDay((await rows.nth(2).locator('td[data-label="Date"]').textContent()) ?? "");
  await page.getByLabel("From", { exact: true }).fill(day);
  await page.getByLabel("To", { exact: true }).fill(day);
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(new RegExp(`from=${day}&to=${day}`));
  await expect(rows.first()).toBeVisible();
  const dayCount = await rows.count();
  expect(dayCount).toBeLessThan(20);
  for (const row of await rows.all())
    expect(isoDay((await row.locator('td[data-label="Date"]').textContent()) ?? "")).toBe(day);
  await page.getByLabel("Sort").selectOption({ label: "Amount: high to low" });
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/sort=amount_desc/);
  await shots(page, "admin-orders-filtered");

  // sorted by amount over every order
  await open(page, "/admin/orders?sort=amount_desc");
  const totals = (await rows.locator('td[data-label="Total"]').allTextContents()).map(money);
  expect(totals).toHaveLength(20);
  expect(totals).toEqual([...totals].sort((a, b) => b - a));
  await expect(page.getByLabel("Sort")).toHaveValue("amount_desc");

  // bulk: two pending orders to confirmed
  await open(page, "/admin/orders?status=PENDING");
  const pending = await rows.locator("a strong").allTextContents();
  expect(pending.length).toBeGreaterThanOrEqual(2);
  await page.getByRole("checkbox", { name: `Select order ${pending[0]}` }).check();
  await page.getByRole("checkbox", { name: `Select order ${pending[1]}` }).check();
  await expect(page.getByTestId("selected-count")).toHaveText(" · 2 selected");
  await page.getByLabel("Move selected to").selectOption("CONFIRMED");
  await page.getByRole("button", { name: "Apply to selected" }).click();
  await expect(page.getByTestId("bulk-results").getByRole("status")).toHaveText(
    `2 orders moved to confirmed: ${pending[0]}, ${pending[1]}.`,
  );
  // the list (pending only) no longer shows them
  await expect(page.getByRole("checkbox", { name: `Select order ${pending[0]}` })).toHaveCount(0);

  // a mix: the confirmed order moves on, the delivered one cannot, and says why
  await open(page, "/admin/orders?status=DELIVERED");
  const delivered = (await rows.locator("a strong").first().textContent())!;
  await open(page, "/admin/orders");
  await page.getByRole("checkbox", { name: `Select order ${delivered}` }).check();
  const confirmed = rows
    .filter({ has: page.getByTestId("order-row-status").getByText("Confirmed", { exact: true }) })
    .first();
  const confirmedNumber = (await confirmed.locator("a strong").textContent())!;
  await confirmed.getByRole("checkbox").check();
  await page.getByLabel("Move selected to").selectOption("PREPARING");
  await page.getByRole("button", { name: "Apply to selected" }).click();
  const results = page.getByTestId("bulk-results");
  await expect(results.getByRole("status")).toHaveText(`1 order moved to preparing: ${confirmedNumber}.`);
  await expect(results.getByRole("alert")).toContainText("1 order was not moved");
  await expect(results.getByRole("alert")).toContainText(
    new RegExp(`${delivered}: Cannot move order from (delivered|picked up) to preparing`),
  );
  await expect(rows.filter({ hasText: confirmedNumber }).getByTestId("order-row-status")).toHaveText("Preparing");
  await expect(rows.filter({ hasText: delivered }).getByTestId("order-row-status")).toHaveText(
    /^(Delivered|Picked up)$/,
  );
  await shots(page, "admin-orders-bulk");

  // the CSV of the current filter: Export prepares it in the background, the page shows its progress, then its Download link
  await open(page, "/admin/orders?q=ana+silva&sort=oldest");
  const listed = await rows.locator("a strong").allTextContents();
  await page.getByRole("button", { name: "Export CSV of these orders" }).click();
  await expect(page).toHaveURL(/\/admin\/orders\?q=ana\+silva&sort=oldest$/);
  const exported = page.getByTestId("order-export").first();
  await expect(exported).toContainText('Orders matching "ana silva"');
  const download = exported.getByRole("link", { name: "Download CSV" });
  await expect(download).toBeVisible({ timeout: 20_000 });
  await expect(exported).toContainText(`${listed.length} orders`);
  await expect(exported).toContainText("available until");
  await shots(page, "admin-orders-export-ready", { reload: true });
  const downloading = page.waitForEvent("download");
  await download.click();
  const file = await downloading;
  expect(file.suggestedFilename()).toMatch(/^orders-demo-bistro-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = (await readFile((await file.path())!, "utf8")).replace(/^\uFEFF/, "");
  const lines = csv.split("\r\n").filter(Boolean);
  expect(lines[0]).toBe(
    "Order,Date,Time zone,Status,Payment status,Payment method,Delivery method,Customer,Phone,Email,Address,Items,Item count,Subtotal,Discount,Delivery fee,Total,Currency,Notes",
  );
  expect(lines.slice(1).map((l) => `#${l.split(",")[0]}`)).toEqual(listed);
  for (const line of lines.slice(1)) {
    expect(line).toContain(",Ana Silva,");
    // a phone number is written as typed (no stray apostrophe): digits cannot run a formula (decision 059)
    expect(line).toMatch(/,\+1 555 01\d\d,/);
    // times in ISO 8601 with the shop's offset
    expect(line).toMatch(/^\d+,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2},/);
  }
  // pressed again on the same list once it is ready: a new file, listed first
  await page.getByRole("button", { name: "Export CSV of these orders" }).click();
  await expect(page.getByTestId("order-export")).toHaveCount(2);
  await expect(page.getByTestId("order-export").first().getByRole("link", { name: "Download CSV" })).toBeVisible({
    timeout: 20_000,
  });
});

test("the product form shows every error at once, next to its field, with a summary that links to them", async ({
  page,
}) => {
  await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
  await open(page, "/admin/products/new");
  await page.getByLabel("Name", { exact: true }).fill("Broken pie");
  await page.getByLabel(/^Price/).fill("abc");
  await page.getByLabel("Image URL").fill("javascript:alert(1)");
  await page.getByRole("button", { name: "Create product" }).click();

  const summary = page.getByTestId("error-summary");
  await expect(summary.getByRole("heading", { name: "There are 2 problems" })).toBeVisible();
  await expect(summary).toBeFocused();
  await expect(page.getByTestId("error-price")).toHaveText("Price must be a number like 12.50");
  await expect(page.getByTestId("error-imageUrl")).toHaveText("Image URL must be a relative path or an http(s) URL");
  await expect(page.getByLabel(/^Price/)).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Image URL")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Name", { exact: true })).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Broken pie");
  await expect(page.locator("body")).not.toContainText("imageUrl:");
  await shots(page, "admin-product-errors");
  await summary.getByRole("link", { name: "Image URL must be a relative path or an http(s) URL" }).click();
  await expect(page.getByLabel("Image URL")).toBeFocused();

  // fixing both saves the product
  await page.getByLabel(/^Price/).fill("6.00");
  await page.getByLabel("Image URL").fill("");
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByText("The product was created.")).toBeVisible();
});

test("after an OAuth install the merchant lands on the app's page in the admin, and the Apps page links to it", async ({
  page,
  request,
}) => {
  const backend = await startAppServer();
  const app = await publishTestApp(request, "Loyalty Stamps", backend.url, {
    description: "Stamps for every order.",
    category: "marketing",
    scopes: ["read_orders"],
    manifest: {
      embeds: [scriptEmbed("stamps", "Stamp card", "body_end", `${backend.url}/embed.js`)],
    },
  });
  await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
  // the app exchanges the code and redirects to <PUBLIC_URL>/admin/apps/<installation_id>?installed=1
  backend.connect(new URL(page.url()).origin, app.clientId, app.clientSecret);
  await consentToInstall(page, app.slug);
  await expect(page).toHaveURL(/\/admin\/apps\/inst_[A-Za-z0-9_-]+\?installed=1$/);
  await expect(page.getByTestId("install-complete")).toContainText(`${app.name} is installed.`);
  await expect(page.getByRole("heading", { name: app.name, level: 1 })).toBeVisible();
  const settingsUrl = new URL(page.url()).pathname;

  // from the Apps page: the app's icon and its name link to the same settings page
  await open(page, "/admin/apps");
  const card = page.getByTestId("installed-app").filter({ hasText: app.name });
  await expect(card.locator(".app-logo")).toBeVisible();
  await expect(card.getByRole("link", { name: `Settings of ${app.name}` })).toHaveAttribute("href", settingsUrl);
  await card.getByRole("link", { name: app.name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${settingsUrl}$`));
  await expect(page.getByRole("heading", { name: app.name, level: 1 })).toBeVisible();
  await expect(page.getByTestId("install-complete")).toHaveCount(0);
  // an embed switch with a done message
  await page.getByRole("button", { name: "Turn off Stamp card" }).click();
  await expect(page.getByRole("status")).toHaveText("Stamp card is off: it no longer shows on your storefront.");
  await expect(page.getByRole("button", { name: "Turn on Stamp card" })).toBeVisible();
  await backend.close();
});

test("a developer sees the test install working, then its result", async ({ page, request }) => {
  const token = await apiToken(request, DEMO.developer.email, DEMO.developer.password);
  const suffix = randomBytes(3).toString("hex");
  const app = await createApp(request, token, {
    name: `Busy Bee ${suffix}`,
    slug: `busy-bee-${suffix}`,
    description: "Buzz.",
    category: "other",
    scopes: ["read_orders"],
    redirectUrl: "https://busy.example/cb",
  });
  await signIn(page, DEMO.developer.email, DEMO.developer.password);
  await open(page, `/portal/apps/${app.id}`);

  // hold the submission a moment, as a slow network would, to see the busy state
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route(
    (url) => url.pathname === `/portal/apps/${app.id}`,
    async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    },
  );
  await page.getByRole("button", { name: "Test-install on sandbox" }).click();
  const busy = page.getByRole("button", { name: "Installing on your sandbox…" });
  await expect(busy).toBeVisible();
  await expect(busy).toBeDisabled();
  await expect(busy).toHaveAttribute("aria-busy", "true");
  // every other button of the page waits too: no second submission meanwhile
  await expect(page.getByRole("button", { name: "Submit for review" })).toBeDisabled();
  release();
  await expect(page.getByRole("status").filter({ hasText: "Test install created" })).toHaveText(
    "Test install created on your sandbox business.",
  );
  await expect(page.getByTestId("test-access-token")).toHaveText(/^fbat_test_/);
  await expect(page.getByRole("button", { name: "Uninstall from sandbox" })).toBeEnabled();
});
