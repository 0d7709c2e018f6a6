/**
 * API versions in the portal (issue 32): an app pinned to 2026-11-21, the changes shown before its
 * pin moves, the move; the changelog; the API reference switching versions.
 */
import { randomBytes } from "node:crypto";
import { test, expect, expectAccessible, signIn, DEMO, apiToken } from "./helpers";

test("an app's API version: review the changes, then switch; the changelog and the versioned reference", async ({
  page,
  request,
}) => {
  // a shared, loaded machine: axe's checks of three pages take their time
  test.setTimeout(240_000);
  const token = await apiToken(request, DEMO.developer.email, DEMO.developer.password);
  const suffix = randomBytes(3).toString("hex");
  const created = await request.post("/developer/apps", {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      name: `Versioned ${suffix}`,
      slug: `versioned-${suffix}`,
      description: "Reads orders in the API version it is pinned to.",
      category: "loyalty",
      scopes: ["read_orders"],
      redirectUrl: "https://versioned.example/oauth/callback",
      apiVersion: "2026-11-21",
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const app = await created.json();
  expect(app.apiVersion).toBe("2026-11-21");

  await signIn(page, DEMO.developer.email, DEMO.developer.password);
  await page.goto(`/portal/apps/${app.id}`);
  await page.getByRole("link", { name: "API version & health" }).click();
  await expect(page.getByRole("heading", { name: "API version & health", level: 1 })).toBeVisible();
  await expect(page.getByTestId("pinned-version")).toHaveText("2026-11-21");
  await expect(page.getByTestId("version-status")).toHaveText("SUPPORTED");
  await expect(page.getByText("No calls or deliveries yet")).toBeVisible();
  await page.getByLabel("Move to").selectOption("2026-11-27");
  await page.getByRole("button", { name: "Review the changes" }).click();
  const changes = page.getByTestId("version-changes");
  await expect(changes).toContainText("What changes from 2026-11-21 to 2026-11-27");
  await expect(changes).toContainText("Every money field of the App API, webhooks and hook calls is an object");
  await expectAccessible(page);
  await page.screenshot({ path: ".data/e2e-results/api-version-review.png", fullPage: true });
  await page.getByRole("button", { name: "Switch to 2026-11-27" }).click();
  await expect(page.getByText("Pinned to 2026-11-27")).toBeVisible();
  await expect(page.getByTestId("pinned-version")).toHaveText("2026-11-27");
  await expect(page.getByTestId("version-status")).toHaveText("CURRENT");

  await page.goto("/portal/docs");
  await page.getByRole("link", { name: "API changelog" }).click();
  await expect(page.getByRole("heading", { name: "API changelog", level: 1 })).toBeVisible();
  await expect(page.locator("#money-as-objects")).toContainText("{amount, currency}");
  await expect(page.getByTestId("changelog-version")).toHaveCount(2);
  await expectAccessible(page);
  await page.screenshot({ path: ".data/e2e-results/api-changelog.png", fullPage: true });

  await page.goto("/portal/docs/api");
  await expect(page.getByRole("heading", { name: "App API reference · 2026-11-27", level: 1 })).toBeVisible();
  await page
    .getByTestId("version-switch")
    .getByRole("link", { name: /^2026-11-21/ })
    .click();
  await expect(page.getByRole("heading", { name: "App API reference · 2026-11-21", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "/app-api/openapi.json?version=2026-11-21" })).toBeVisible();
  await page.screenshot({ path: ".data/e2e-results/api-reference-2026-11-21.png", fullPage: false });
});
