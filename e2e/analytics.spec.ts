import { test, expect, signIn, DEMO } from "./helpers";

test("the developer sees the demo app's figures and both charts", async ({ page }) => {
  await signIn(page, DEMO.developer.email, DEMO.developer.password);
  await page.getByRole("link", { name: "My apps" }).click();
  await page.getByRole("link", { name: "Loyalty Stars" }).click();
  await page.getByRole("link", { name: "Analytics" }).click();
  await expect(page.getByRole("heading", { name: "Analytics" })).toBeVisible();
  await expect(page.locator(".stat").filter({ hasText: "Total installs" })).toContainText("5");
  await expect(page.locator(".stat").filter({ hasText: "Active installs" })).toContainText("4");
  await expect(page.locator(".stat").filter({ hasText: "Webhook success rate" })).toContainText("%");
  await expect(page.getByRole("img", { name: "Install trend, last 30 days" })).toBeVisible();
  await expect(page.getByRole("img", { name: "Webhook deliveries, last 30 days" })).toBeVisible();
  // every one of the 30 days has a bar in the deliveries chart
  await expect(page.getByRole("img", { name: "Webhook deliveries, last 30 days" }).locator("rect")).not.toHaveCount(0);
  await page.screenshot({ path: "docs/images/analytics.png", fullPage: true });
});
