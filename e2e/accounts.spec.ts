import { test, expect, uniqueEmail, signIn, signOut, DEMO } from "./helpers";

test("a developer signs up, sees the sandbox business and signs out", async ({ page }) => {
  const email = uniqueEmail("dev");
  await page.goto("/");
  await page.getByRole("link", { name: "Build an app" }).click();
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
  await page.getByLabel("Build apps").check();
  await page.getByLabel("Your name").fill("Ada Lovelace");
  await page.getByLabel("Email").fill(email);
  // the strength meter reacts as the password is typed, and the most common passwords are refused
  await page.getByLabel(/^Password/).fill("password1");
  await expect(page.getByTestId("password-strength")).toContainText("Too weak");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("alert")).toContainText("Password is one of the most common passwords");
  await expect(page.getByTestId("error-password")).toHaveText(/^Password is one of the most common passwords/);
  await page.getByLabel("Your name").fill("Ada Lovelace");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/^Password/).fill("analytical-engine");
  await expect(page.getByTestId("password-strength")).toContainText(/Good|Strong/);
  await page.getByRole("button", { name: "Create account" }).click();

  await expect(page).toHaveURL(/\/portal$/);
  await expect(page.getByRole("heading", { name: "Welcome, Ada Lovelace" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Your sandbox business" })).toBeVisible();
  await expect(page.getByTestId("sandbox-name")).toHaveText("Ada Lovelace's sandbox");
  await expect(page.locator(".stat").filter({ hasText: "Orders" })).toContainText("30");
  // the next steps start at the first one, and name the CLI
  await expect(page.locator('[data-step="app"]')).toContainText("Next");
  await expect(page.locator('[data-step="test-install"]')).toContainText("npx storefront-apps test-install");
  await page.screenshot({ path: ".data/e2e-results/portal-overview.png", fullPage: true });

  await signOut(page);
  await page.goto("/portal");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fportal/);

  // signing in again brings the developer back where they were going
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill("analytical-engine");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/portal$/);
});

test("a wrong password shows one clear message", async ({ page }) => {
  await page.goto("/login");
  await page.locator('input[name="email"]').fill(DEMO.merchant.email);
  await page.locator('input[name="password"]').fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
});

test("the demo merchant and reviewer land in their own areas", async ({ page }) => {
  await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { name: "Demo Bistro" })).toBeVisible();
  await page.screenshot({ path: ".data/e2e-results/admin-dashboard.png", fullPage: true });
  await signOut(page);

  await signIn(page, DEMO.reviewer.email, DEMO.reviewer.password);
  await expect(page).toHaveURL(/\/reviewer$/);
  await expect(page.getByRole("heading", { name: "Review queue" })).toBeVisible();
  // a reviewer is not let into the merchant admin
  const res = await page.goto("/admin");
  expect(res?.status()).toBe(403);
});
