import { randomBytes } from "node:crypto";
import { test, expect, colorTitleSettings, createApp, registerDeveloper, signIn } from "./helpers";
import { startAppServer } from "./app-server";

test("a developer edits the manifest (errors by field, the sync plan, the framing check) and previews a draft block live", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const appServer = await startAppServer();
  const { email, token } = await registerDeveloper(request, "Mani Fest", "manifest-pass-1");
  const app = await createApp(request, token, {
    name: "Banner Maker",
    slug: `banner-${randomBytes(3).toString("hex")}`,
    description: "Banners",
    category: "marketing",
    scopes: ["read_business"],
    redirectUrl: "https://banner.example/cb",
  });

  await signIn(page, email, "manifest-pass-1");
  await page.goto(`/portal/apps/${app.id}/manifest`);
  // the code editor has replaced the textarea (what is typed before the page hydrates is lost)
  await expect(page.getByRole("textbox", { name: "Manifest JSON" })).toHaveAttribute("contenteditable", "true");
  const editor = page.getByLabel("Manifest JSON");
  await editor.fill(
    JSON.stringify({
      blocks: [{ blockType: "Bad Type", name: "X", renderUrl: "javascript:alert(1)" }],
      hooks: [{ hookPoint: "order.teleport", url: "/x" }],
    }),
  );
  await page.getByRole("button", { name: "Check" }).click();
  const errors = page.getByTestId("manifest-errors");
  await expect(errors).toContainText("blocks[0].blockType");
  await expect(errors).toContainText("blocks[0].renderUrl");
  await expect(errors).toContainText("hooks[0].hookPoint");

  const manifest = {
    blocks: [
      {
        blockType: "banner",
        name: "Banner",
        renderUrl: `${appServer.url}/block`,
        settingsSchema: colorTitleSettings({ sticky: { type: "boolean", title: "Sticky" } }),
        defaultConfig: { color: "#aa3300", title: "Hello" },
      },
    ],
    adminPages: [{ pageId: "home", title: "Home", renderUrl: "http://127.0.0.1:1/unreachable" }],
  };
  await editor.fill(JSON.stringify(manifest, null, 2));
  await page.getByRole("button", { name: "Check" }).click();
  await expect(page.getByTestId("sync-plan")).toContainText("block:banner");
  await expect(page.getByTestId("sync-plan")).toContainText("create");
  await expect(page.getByTestId("framing")).toContainText("frameable");
  await expect(page.getByTestId("framing")).toContainText("could not load");
  await page.getByRole("button", { name: "Save manifest" }).click();
  await expect(page.getByText("Manifest saved and synced.")).toBeVisible();
  await page.screenshot({ path: ".data/e2e-results/manifest-editor.png", fullPage: true });

  // the draft app's block, previewed live before any install
  await page.goto(`/portal/apps/${app.id}/preview`);
  await page.waitForLoadState("networkidle");
  const frame = page.frameLocator('iframe[title="Banner preview"]');
  await expect(frame.locator("#label")).toHaveText("Hello");
  await page.getByLabel("Title").fill("Big sale");
  await expect(frame.locator("#label")).toHaveText("Big sale");
  await expect(page.getByRole("switch")).toBeVisible();
  await page.screenshot({ path: ".data/e2e-results/block-preview.png", fullPage: true });
  await appServer.close();
});
