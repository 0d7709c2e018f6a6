import { type Page } from "@playwright/test";
import { test, expect, uniqueEmail, signIn, signOut, signUp, DEMO, approveWithEveryCriterion } from "./helpers";

async function signUpDeveloper(page: Page, email: string) {
  await signUp(page, { role: "Build apps", name: "Grace Hopper", email, password: "cobol-compiler" });
  await expect(page).toHaveURL(/\/portal$/);
}

test("an app goes from creation through rejection and approval into the marketplace", async ({ page }) => {
  const email = uniqueEmail("dev");
  const suffix = email.slice(4, 12);
  const appName = `Stamp Card ${suffix}`;
  const slug = `stamp-card-${suffix}`;

  // the developer creates an app and sees the secret once
  await signUpDeveloper(page, email);
  await page.getByRole("link", { name: "My apps" }).first().click(); // the menu's (the next steps link it too)
  await expect(page.getByText("You have no apps yet")).toBeVisible();
  await page.getByRole("link", { name: "Create your first app" }).click();
  await page.getByLabel("Name", { exact: true }).fill(appName);
  await page.getByLabel(/^Slug/).fill(slug);
  await page.getByLabel(/^Description/).fill("Digital stamp cards: every tenth coffee is free.");
  await page.getByLabel("Category").selectOption("loyalty");
  await page.locator('input[name="scopes"][value="read_orders"]').check();
  await page.getByLabel("OAuth redirect URL").fill("https://stamps.example/oauth/callback");
  await page.getByRole("button", { name: "Create app" }).click();

  await expect(page.getByRole("heading", { name: "Client credentials" })).toBeVisible();
  await expect(page.getByRole("alert")).toContainText("It will not be shown again");
  const secret = await page.getByTestId("client-secret").textContent();
  expect(secret).toMatch(/^fbcs_/);
  await page.screenshot({ path: ".data/e2e-results/app-secret.png" });
  await page.reload();
  await expect(page.getByTestId("client-secret")).toHaveCount(0);
  await expect(page.getByText("was shown once")).toBeVisible();

  await page.getByRole("link", { name: /continue/ }).click();
  await expect(page.getByTestId("app-status")).toHaveText("Draft");
  await page.getByRole("button", { name: "Submit for review" }).click();
  await expect(page.getByTestId("app-status")).toHaveText("In review");
  await expect(page.getByRole("button", { name: "Save changes" })).toBeDisabled();
  await signOut(page);

  // the reviewer rejects it with notes
  await signIn(page, DEMO.reviewer.email, DEMO.reviewer.password);
  await page.getByRole("link", { name: appName }).click();
  await expect(page.getByText("See your orders and payments")).toBeVisible();
  await page.getByLabel("Notes for the developer").fill("Please add at least one screenshot.");
  await page.getByRole("button", { name: "Reject" }).click();
  await expect(page.getByText("sent back to the developer")).toBeVisible();
  await signOut(page);

  // the developer reads the notes, edits and resubmits
  await signIn(page, email, "cobol-compiler");
  await page.getByRole("link", { name: "My apps" }).first().click(); // the menu's (the next steps link it too)
  await expect(page.getByText("Changes requested")).toBeVisible();
  await page.getByRole("link", { name: appName }).click();
  await expect(page.getByTestId("review-notes")).toHaveText("Please add at least one screenshot.");
  await page.getByLabel(/^Screenshots/).fill("https://stamps.example/screenshot-1.png");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Changes saved.")).toBeVisible();
  await page.getByRole("button", { name: "Submit for review" }).click();
  await expect(page.getByTestId("app-status")).toHaveText("In review");
  await signOut(page);

  // the reviewer approves
  await signIn(page, DEMO.reviewer.email, DEMO.reviewer.password);
  await page.getByRole("link", { name: appName }).click();
  await approveWithEveryCriterion(page);
  await expect(page.getByText("App approved and published.")).toBeVisible();
  await signOut(page);

  // a visitor finds it by category and by search
  await page.goto("/marketplace");
  await page.getByRole("link", { name: "Loyalty", exact: true }).click();
  await expect(page).toHaveURL(/category=loyalty/);
  await expect(page.getByRole("link", { name: new RegExp(appName) })).toBeVisible();
  await page.getByRole("link", { name: "Shipping", exact: true }).click();
  await expect(page.getByRole("link", { name: new RegExp(appName) })).toHaveCount(0);

  await page.goto("/marketplace");
  await page.getByRole("searchbox", { name: "Search apps" }).fill(suffix);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("link", { name: new RegExp(appName) })).toBeVisible();
  await page.screenshot({ path: ".data/e2e-results/marketplace.png", fullPage: true });
  await page.getByRole("link", { name: new RegExp(appName) }).click();
  await expect(page.getByRole("heading", { name: appName })).toBeVisible();
  await expect(page.getByText("See your orders and payments")).toBeVisible();
  await expect(page.getByRole("link", { name: "Install" })).toBeVisible();
  await expect(page.getByText("by Grace Hopper")).toBeVisible();
  await page.screenshot({ path: ".data/e2e-results/marketplace-app.png", fullPage: true });
});
