/**
 * The site builder with its live preview (decision 017), as a merchant uses it: the preview shows the
 * page as the storefront renders it, from the unsaved draft; a click in the preview selects the block;
 * settings, drag and drop, undo and the phone width show at once; leaving asks first; saving
 * publishes. An installed app's block runs in the preview with `mode: "editor"`.
 */
import { type Frame, type Page } from "@playwright/test";
import { test, expect, apiToken, signIn, DEMO, publishTestApp, installApp, starBannerBlock } from "./helpers";
import { startAppServer } from "./app-server";

const names = (page: Page) => page.getByTestId("builder-block").locator(".sb-item-label");

test("a merchant edits the home page beside its live preview and publishes it", async ({ page, request, baseURL }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const storefrontOrigin = baseURL!.replace("localhost", "127.0.0.1");
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(`${page.url()}: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error" && !/favicon|Failed to load resource/.test(m.text()))
      problems.push(`console: ${m.text()}`);
  });

  // an app with a block, served by a local app backend, installed through the consent screen
  const appServer = await startAppServer();
  const app = await publishTestApp(request, "Banner Studio", appServer.url, {
    description: "A colored banner block.",
    category: "marketing",
    scopes: ["read_business"],
    manifest: {
      blocks: [starBannerBlock(appServer.url, "banner", "Promotions")],
    },
  });
  // the home page as the other tests know it, put back at the end
  const merchantToken = await apiToken(request, DEMO.merchant.email, DEMO.merchant.password);
  const auth = { Authorization: `Bearer ${merchantToken}` };
  const original = await (await request.get("/merchant/pages/home", { headers: auth })).json();

  await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
  await installApp(page, app.slug);

  // 1. the builder shows the page as the storefront renders it: the shop's header, the heading, the products
  await page.goto("/admin/pages/home");
  const previewEl = page.locator("iframe.sb-frame");
  const preview = page.frameLocator("iframe.sb-frame");
  await expect(previewEl).toHaveAttribute(
    "src",
    new RegExp(`^${storefrontOrigin.replace(/[.]/g, "\\.")}/s/demo-bistro/preview/home\\?token=`),
  );
  await expect(preview.getByRole("heading", { name: "Welcome to Demo Bistro" })).toBeVisible();
  await expect(preview.locator(".sf-brand")).toHaveText("Demo Bistro");
  await expect(preview.locator(".sf-card")).toHaveCount(8);
  await expect(preview.getByRole("link", { name: "Espresso" })).toBeVisible();
  await expect(page.getByText("Loading the preview…")).toHaveCount(0);
  await expect(names(page)).toHaveText(["Heading", "Text", "Product grid"]);

  // 2. a click on a block in the preview selects it in the list and opens its settings
  await preview.getByRole("button", { name: "Select block: Text" }).click();
  const textItem = page.getByTestId("builder-block").filter({ hasText: "Fresh food" });
  await expect(textItem.getByRole("button", { name: /^Text/ })).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByRole("region", { name: "Settings: Text" })).toBeVisible();
  await expect(preview.locator(".sfp-block.is-selected")).toContainText("Fresh food, made to order");

  // 3. a new heading shows in the preview at once, before saving; the storefront still has the old one
  await preview.getByRole("button", { name: "Select block: Heading" }).click();
  const headingSettings = page.getByRole("region", { name: "Settings: Heading" });
  await expect(headingSettings).toBeVisible();
  await headingSettings.getByRole("textbox").fill("Fresh pasta every day");
  await expect(preview.getByRole("heading", { name: "Fresh pasta every day" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Unsaved changes" })).toBeVisible();
  const live = await request.get(`${storefrontOrigin}/s/demo-bistro`);
  expect(await live.text()).toContain("Welcome to Demo Bistro");

  // 4. drag and drop in the list: the preview follows
  const items = page.getByTestId("builder-block");
  await items
    .nth(1)
    .locator(".sb-grip")
    .dragTo(items.nth(0), { targetPosition: { x: 40, y: 6 } });
  await expect(names(page)).toHaveText(["Text", "Heading", "Product grid"]);
  await expect(preview.locator(".sfp-tag")).toHaveText(["Text", "Heading", "Product grid"]);

  // 5. undo: the button, then Ctrl+Z outside the text fields
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(names(page)).toHaveText(["Heading", "Text", "Product grid"]);
  await expect(preview.locator(".sfp-tag")).toHaveText(["Heading", "Text", "Product grid"]);
  await page.getByRole("button", { name: "Move Product grid up" }).click();
  await expect(preview.locator(".sfp-tag")).toHaveText(["Heading", "Product grid", "Text"]);
  await page.getByRole("heading", { name: "Blocks" }).click();
  await page.keyboard.press("Control+z");
  await expect(names(page)).toHaveText(["Heading", "Text", "Product grid"]);
  await expect(preview.locator(".sfp-tag")).toHaveText(["Heading", "Text", "Product grid"]);
  // and with the focus in the preview (after a click on a block there)
  await page.getByRole("button", { name: "Move Text up" }).click();
  await expect(names(page)).toHaveText(["Text", "Heading", "Product grid"]);
  await preview.getByRole("button", { name: "Select block: Heading" }).click();
  await page.keyboard.press("Control+z");
  await expect(names(page)).toHaveText(["Heading", "Text", "Product grid"]);
  await expect(preview.locator(".sfp-tag")).toHaveText(["Heading", "Text", "Product grid"]);
  // the heading edit is still there
  await expect(preview.getByRole("heading", { name: "Fresh pasta every day" })).toBeVisible();

  // 6. the app's block, added after the selected heading, runs in the preview in the editor's mode
  await page.getByRole("button", { name: "Add a block" }).click();
  await page.getByRole("button", { name: /Star banner/ }).click();
  await expect(names(page)).toHaveText(["Heading", "Star banner", "Text", "Product grid"]);
  const block = preview.frameLocator('iframe[title="Star banner"]');
  await expect(block.locator("#label")).toHaveText("Rate us");
  await expect(block.locator("#mode")).toHaveText("editor");
  const blockFrame = await frameOf(page, `${appServer.url}/block`);
  const init = await blockFrame.evaluate(() =>
    (window as any).received.find((m: any) => m.data?.type === "SERVICE_BLOCK_INIT"),
  );
  expect(init.origin).toBe(storefrontOrigin);
  expect(init.data).toMatchObject({
    type: "SERVICE_BLOCK_INIT",
    mode: "editor",
    settings: { color: "#ff8800", title: "Rate us" },
    locale: "en-US",
  });
  expect(typeof init.data.sessionToken).toBe("string");
  const loadId = await blockFrame.evaluate(() => (window as any).loadId);
  // a setting arrives as SERVICE_BLOCK_UPDATE, without reloading the block
  await page
    .getByRole("region", { name: "Settings: Star banner" })
    .getByRole("textbox", { name: "Title", exact: true })
    .fill("Loyalty stars");
  await expect(block.locator("#label")).toHaveText("Loyalty stars");
  const update = await blockFrame.evaluate(() => (window as any).received.at(-1));
  expect(update.data).toMatchObject({ type: "SERVICE_BLOCK_UPDATE", settings: { title: "Loyalty stars" } });
  expect(await blockFrame.evaluate(() => (window as any).loadId)).toBe(loadId);
  // the block asks for its height, clamped to 400
  await blockFrame.evaluate(() => window.parent.postMessage({ type: "SERVICE_BLOCK_RESIZE", height: 900 }, "*"));
  await expect
    .poll(() => preview.locator('iframe[title="Star banner"]').evaluate((el) => el.getBoundingClientRect().height))
    .toBe(400);
  await blockFrame.evaluate(() => window.parent.postMessage({ type: "SERVICE_BLOCK_RESIZE", height: 120 }, "*"));
  await expect
    .poll(() => preview.locator('iframe[title="Star banner"]').evaluate((el) => el.getBoundingClientRect().height))
    .toBe(120);

  // a click on the app block (an iframe) selects it too
  await page.getByRole("button", { name: /^Text/ }).click();
  await expect(page.getByRole("region", { name: "Settings: Text" })).toBeVisible();
  await preview.locator('[data-preview-block]:has(iframe[title="Star banner"])').click({ position: { x: 60, y: 40 } });
  await expect(page.getByRole("region", { name: "Settings: Star banner" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Settings: Text" })).toHaveCount(0);
  // the README's picture: the builder and the preview from their tops, the app block selected
  await page.evaluate(() => window.scrollTo(0, 0));
  await preview.locator("body").evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
  await page.screenshot({ path: "docs/images/site-builder.png" });

  // 7. the phone width, and back
  await page.getByRole("button", { name: "Phone" }).click();
  await expect(page.getByRole("button", { name: "Phone" })).toHaveAttribute("aria-pressed", "true");
  await expect.poll(async () => Math.round((await previewEl.boundingBox())!.width)).toBe(390);
  await expect.poll(() => preview.locator("body").evaluate(() => window.innerWidth)).toBe(390);
  await expect(preview.getByRole("heading", { name: "Fresh pasta every day" })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("site-builder-phone-preview.png") });
  await page.getByRole("button", { name: "Desktop" }).click();
  await expect.poll(() => preview.locator("body").evaluate(() => window.innerWidth)).toBe(1024);

  // 8. leaving with unsaved changes asks first: a link of the admin, then the browser itself
  await page.getByRole("link", { name: "Dashboard" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Leave without saving?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Stay on this page" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/admin\/pages\/home$/);
  const beforeUnload = new Promise<string>((resolve) =>
    page.once("dialog", (d) => {
      resolve(d.type());
      void d.dismiss();
    }),
  );
  await page.close({ runBeforeUnload: true });
  expect(await beforeUnload).toBe("beforeunload");
  expect(page.isClosed()).toBe(false);
  await expect(preview.getByRole("heading", { name: "Fresh pasta every day" })).toBeVisible();

  // 9. save: the storefront shows the page as the preview did
  await page.getByRole("button", { name: "Save page" }).click();
  await expect(page.getByText("Page saved.")).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "All changes saved" })).toBeVisible();
  await expect(preview.getByRole("heading", { name: "Fresh pasta every day" })).toBeVisible();
  await page.getByRole("link", { name: "Dashboard" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto("/s/demo-bistro");
  await expect(page.getByRole("heading", { name: "Fresh pasta every day" })).toBeVisible();
  await expect(page.frameLocator('.app-block iframe[title="Star banner"]').locator("#label")).toHaveText(
    "Loyalty stars",
  );
  await expect(page.frameLocator('.app-block iframe[title="Star banner"]').locator("#mode")).toHaveText("storefront");
  expect(problems).toEqual([]);

  // put the demo shop back as the other tests know it: the app uninstalled, the page as it was
  const installs = await (await request.get("/merchant/installations", { headers: auth })).json();
  const installation = installs.data.find(
    (i: { appId: string; status: string }) => i.appId === app.id && i.status === "ACTIVE",
  );
  expect(
    (await request.delete(`/merchant/installations/${installation.installationId}`, { headers: auth })).status(),
  ).toBe(200);
  const restored = await request.put("/merchant/pages/home", {
    headers: auth,
    data: { title: original.title, isPublished: original.isPublished, blocks: original.blocks },
  });
  expect(restored.status()).toBe(200);
  await appServer.close();
});

test("the preview opens only with the builder's token, and only inside the platform's pages", async ({
  page,
  request,
  baseURL,
}) => {
  const storefrontOrigin = baseURL!.replace("localhost", "127.0.0.1");
  for (const query of ["", "?token=", "?token=eyJhbGciOiJIUzI1NiJ9.e30.x"]) {
    const res = await request.get(`${storefrontOrigin}/s/demo-bistro/preview/home${query}`);
    expect(res.status(), query).toBe(401);
    expect(res.headers()["cache-control"]).toBe("no-store");
    expect(await res.text()).not.toContain("Welcome to Demo Bistro");
  }
  // a page of another origin (here an app's) cannot frame a valid preview: frame-ancestors names the platform only
  const appServer = await startAppServer();
  await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
  await page.goto("/admin/pages/home");
  const src = (await page.locator("iframe.sb-frame").getAttribute("src"))!;
  expect((await request.get(src)).status()).toBe(200);
  // on a phone the builder stacks: blocks, then the preview, and nothing is wider than the screen
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(
    page.frameLocator("iframe.sb-frame").getByRole("heading", { name: "Welcome to Demo Bistro" }),
  ).toBeVisible();
  await expect(page.getByText("Loading the preview…")).toHaveCount(0);
  // a narrow screen starts the preview at the phone's width
  await page.reload();
  await expect(page.getByRole("button", { name: "Phone" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByText("Loading the preview…")).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: test.info().outputPath("site-builder-390.png"), fullPage: true });
  await page.goto(`${appServer.url}/`);
  await page.evaluate((url) => {
    const f = document.createElement("iframe");
    f.id = "stolen";
    f.src = url;
    document.body.appendChild(f);
  }, src);
  const frame = (await (await page.locator("#stolen").elementHandle())!.contentFrame())!;
  await expect.poll(() => frame.url()).toMatch(/^chrome-error:/);
  await appServer.close();
});

async function frameOf(page: Page, url: string): Promise<Frame> {
  await expect.poll(() => page.frames().some((f) => f.url() === url)).toBe(true);
  return page.frames().find((f) => f.url() === url)!;
}
