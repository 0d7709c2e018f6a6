import { test, expect, signIn, startAppServer, DEMO, publishTestApp } from "./helpers";

test("a merchant installs an app from the marketplace through the consent screen and uninstalls it", async ({
  page,
  request,
}) => {
  const backend = await startAppServer();
  const app = await publishTestApp(request, "Shipping Buddy", backend.url, {
    description: "Live delivery rates at checkout.",
    category: "shipping",
    scopes: ["read_orders", "read_business"],
  });

  await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
  await page.goto("/marketplace");
  await page.getByRole("link", { name: new RegExp(app.name) }).click();
  await page.getByRole("link", { name: "Install" }).click();

  await expect(page.getByRole("heading", { name: `Install ${app.name}` })).toBeVisible();
  await expect(page.getByText("See your orders and payments")).toBeVisible();
  await expect(page.getByText("See your business details")).toBeVisible();
  await expect(page.getByText("Demo Bistro")).toBeVisible();
  await page.screenshot({ path: ".data/e2e-results/consent.png", fullPage: true });
  await page.getByRole("button", { name: "Install" }).click();

  await expect(page.getByRole("heading", { name: "Connected to the app" })).toBeVisible();
  const callback = new URL(page.url());
  expect(callback.pathname).toBe("/oauth/callback");
  expect(callback.searchParams.get("code")).toBeTruthy();
  expect(callback.searchParams.get("state")).toMatch(/^marketplace\./);

  await page.goto("/admin/apps");
  const card = page.getByTestId("installed-app").filter({ hasText: app.name });
  await expect(card).toBeVisible();
  await expect(card.getByText("See your orders and payments")).toBeVisible();
  await page.screenshot({ path: ".data/e2e-results/admin-apps.png", fullPage: true });

  await card.getByText("Uninstall…").click();
  await card.getByRole("button", { name: `Uninstall ${app.name}` }).click();
  await expect(page.getByRole("status")).toContainText("uninstalled");
  await expect(page.getByTestId("installed-app").filter({ hasText: app.name })).toHaveCount(0);
  const removed = page.locator("table tr").filter({ hasText: app.name });
  await expect(removed).toContainText("Scheduled for");
  await backend.close();
});
