/**
 * The SDK guide in the portal (issue 19), and the SDK's browser bridge served by the platform.
 */
import { test, expect, expectAccessible, signIn, DEMO } from "./helpers";

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`the SDK and CLI guide at ${viewport.width}px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signIn(page, DEMO.developer.email, DEMO.developer.password);
    await page.goto("/portal/docs");
    await page.getByRole("link", { name: "The SDK and the CLI" }).first().click();
    await expect(page.getByRole("heading", { name: "The SDK and the CLI", level: 1 })).toBeVisible();
    await expect(
      page.getByRole("heading", { name: "listen: webhooks on your laptop without a public URL" }),
    ).toBeVisible();
    // {PLATFORM_URL} is the platform's own address in the portal
    await expect(page.locator("main")).toContainText(
      `import { createBridge } from "${new URL(page.url()).origin}/sdk/bridge.js"`,
    );
    await expectAccessible(page);
    await page.screenshot({ path: `.data/e2e-results/sdk-guide-${viewport.width}.png`, fullPage: false });
  });
}

test("the bridge module loads in a real browser and stays silent outside a host's frame", async ({ page }) => {
  await page.goto("/sdk/bridge.js");
  const result = await page.evaluate(async () => {
    const m = await import(location.origin + "/sdk/bridge.js");
    const bridge = m.createBridge({ hostOrigins: [location.origin] });
    return { host: bridge.host, parentOrigin: m.parentOrigin() };
  });
  // a top-level page has no parent: no host, nothing posted
  expect(result.host).toBeNull();
});
