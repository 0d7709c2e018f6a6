/**
 * The portal's API references (decision 025): the App API and the Platform API, each made from the
 * operations their route modules declare, with the documents they are made from.
 */
import { test, expect, expectAccessible, signIn, DEMO } from "./helpers";

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`the App API and Platform API references at ${viewport.width}px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signIn(page, DEMO.developer.email, DEMO.developer.password);
    await page.goto("/portal/docs");

    await page.getByRole("link", { name: "App API reference", exact: true }).click();
    await expect(page.getByRole("heading", { name: "App API reference", level: 1 })).toBeVisible();
    const orders = page.locator("section#getAppApiOrders");
    await expect(orders.getByRole("heading", { name: "GET /app-api/orders" })).toBeVisible();
    await expect(orders).toContainText("Needs the read_orders scope");
    await expect(orders).toContainText("above 50 it is clamped to 50");
    await expectAccessible(page);
    await page.screenshot({ path: `.data/e2e-results/api-reference-${viewport.width}.png`, fullPage: false });

    await page.goto("/portal/docs");
    await page.getByRole("link", { name: "Platform API reference", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Platform API reference", level: 1 })).toBeVisible();
    const uninstall = page.locator("section#deleteMerchantInstallationsInstallationId");
    await expect(
      uninstall.getByRole("heading", { name: "DELETE /merchant/installations/{installationId}" }),
    ).toBeVisible();
    await expect(uninstall).toContainText("Called by a merchant account");
    await expect(page.locator("section#postReviewAppsAppIdReject")).toContainText("AppRejection");
    await expect(page.locator("#schema-AppRecord")).toContainText("approvedScopes");
    await expectAccessible(page);
    await page.screenshot({ path: `.data/e2e-results/platform-api-reference-${viewport.width}.png`, fullPage: false });
    // /developer, /auth and /oauth/token are declared and shown too, with who calls them
    const createApp = page.locator("section#postDeveloperApps");
    await expect(createApp.getByRole("heading", { name: "POST /developer/apps" })).toBeVisible();
    await expect(createApp).toContainText("Called by a developer account");
    await expect(createApp).toContainText("AppCreate");
    await expect(page.locator("section#postAuthLogin")).toContainText("Called by anyone, without a token");
    const listen = page.locator("section#getDeveloperAppsAppIdListen");
    await expect(listen).toContainText("ListenEventStream (text/event-stream)");
    const token = page.locator("section#postOauthToken");
    await expect(token).toContainText("OAuthTokenRequest (application/x-www-form-urlencoded)");
    await expect(token).toContainText("OAuthError");
    await token.scrollIntoViewIfNeeded();
    await page.screenshot({
      path: `.data/e2e-results/platform-api-oauth-token-${viewport.width}.png`,
      fullPage: false,
    });

    // the document the page is made from, public and machine-readable
    const link = page.getByRole("link", { name: "/developer/openapi.json" });
    const res = await page.request.get((await link.getAttribute("href")) as string);
    expect(res.status()).toBe(200);
    const doc = await res.json();
    expect(doc.info.title).toBe("Storefront Apps — Platform API");
    expect(doc.paths["/merchant/installations/{installationId}"].delete["x-caller"]).toBe("MERCHANT");
    expect(doc.paths["/oauth/token"].post["x-caller"]).toBe("CLIENT");
  });
}
