/**
 * The developer's sandbox is a real shop (contract 14, decision 036): a new developer signs in,
 * test-installs their DRAFT app from the portal, opens the sandbox's site builder from there, places
 * the app's block (served by a real local app backend), saves, and sees the block on the sandbox's
 * storefront. No review: the app stays a draft throughout. Every admin page says it is the sandbox.
 */
import { randomBytes } from "node:crypto";
import { test, expect, createApp, registerDeveloper, signIn, shots, starBannerBlock } from "./helpers";
import { startAppServer } from "./app-server";

test("a developer places their draft app's block on the sandbox with the site builder, no review", async ({
  page,
  request,
}) => {
  test.setTimeout(360_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const appServer = await startAppServer();
  const password = "sandbox-pass-1";
  const { email, token } = await registerDeveloper(request, "Sandra Box", password);
  const app = await createApp(request, token, {
    name: "Banner Draft",
    slug: `banner-draft-${randomBytes(3).toString("hex")}`,
    description: "A banner block, still a draft",
    category: "marketing",
    scopes: ["read_business"],
    redirectUrl: `${appServer.url}/oauth/callback`,
    manifest: { blocks: [starBannerBlock(appServer.url, "banner", "Promotions")] },
  });
  const auth = { Authorization: `Bearer ${token}` };
  const sandbox = await (await request.get("/developer/sandbox", { headers: auth })).json();

  // the portal's overview leads to the sandbox admin, marked as the sandbox on every page
  await signIn(page, email, password);
  await page.goto("/portal");
  await page.getByTestId("open-sandbox-admin").click();
  await expect(page).toHaveURL(/\/admin$/);
  const banner = page.getByTestId("sandbox-banner");
  await expect(banner).toContainText("Sandbox of Sandra Box");
  await expect(banner).toContainText("test data, no real shoppers");
  await shots(page, "sandbox-admin-dashboard");
  await page.locator("#area-drawer").getByRole("link", { name: "Apps", exact: true }).click();
  await expect(page.getByTestId("sandbox-banner")).toBeVisible();
  await expect(page.getByText("No apps installed")).toBeVisible();
  await shots(page, "sandbox-admin-apps-empty");
  // the way back to the portal
  await page.getByTestId("sandbox-banner").getByRole("link", { name: "Developer portal" }).click();
  await expect(page).toHaveURL(/\/portal$/);

  // the app's page: test-install, then the builder is one click away
  await page.goto(`/portal/apps/${app.id}`);
  await page.getByRole("button", { name: "Test-install on sandbox" }).click();
  await expect(page.getByTestId("test-install-status")).toHaveText("Installed");
  await page.getByRole("link", { name: "Place its blocks in the sandbox's site builder" }).click();
  await expect(page).toHaveURL(/\/admin\/pages\/home$/);
  await expect(page.getByTestId("sandbox-banner")).toBeVisible();

  // the builder offers the test installation's block; the preview runs it in the editor's mode
  const preview = page.frameLocator("iframe.sb-frame");
  await expect(preview.locator(".sf-brand")).toHaveText(sandbox.name);
  await page.getByRole("button", { name: "Add a block" }).click();
  await expect(page.getByRole("heading", { name: "Promotions" })).toBeVisible();
  await page.getByRole("button", { name: /Star banner/ }).click();
  const names = page.getByTestId("builder-block").locator(".sb-item-label");
  await expect(names).toContainText(["Star banner"]);
  const block = preview.frameLocator('iframe[title="Star banner"]');
  await expect(block.locator("#label")).toHaveText("Rate us");
  await expect(block.locator("#mode")).toHaveText("editor");
  await page
    .getByRole("region", { name: "Settings: Star banner" })
    .getByRole("textbox", { name: "Title", exact: true })
    .fill("Sandbox stars");
  await expect(block.locator("#label")).toHaveText("Sandbox stars");
  await shots(page, "sandbox-site-builder");
  await page.getByRole("button", { name: "Save page" }).click();
  await expect(page.getByText("Page saved.")).toBeVisible();

  // the sandbox's storefront shows the block, and the app is still a draft nobody reviewed
  await page.goto(sandbox.storefrontUrl);
  const live = page.frameLocator('.app-block iframe[title="Star banner"]');
  await expect(live.locator("#label")).toHaveText("Sandbox stars");
  await expect(live.locator("#mode")).toHaveText("storefront");
  await shots(page, "sandbox-storefront-with-block");
  const after = await (await request.get(`/developer/apps/${app.id}`, { headers: auth })).json();
  expect(after.status).toBe("DRAFT");

  // the sandbox admin's app page: the test installation with its settings
  await page.goto("/admin/apps");
  await expect(page.getByTestId("installed-app")).toContainText(app.name);
  await expect(page.getByRole("link", { name: "Test-install your apps" })).toBeVisible();
  await shots(page, "sandbox-admin-apps");
});
