import { jwtVerify } from "jose";
import {
  test,
  expect,
  signIn,
  DEMO,
  publishTestApp,
  installApp,
  starBannerBlock,
  chatWidgetEmbed,
  scriptEmbed,
} from "./helpers";
import { startAppServer } from "./app-server";

test("blocks, embeds and admin pages of an installed app, from the builder to the storefront and back out", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const appServer = await startAppServer();
  const app = await publishTestApp(request, "Star Widgets", appServer.url, (suffix) => ({
    description: "A rating block, a chat widget and a tracking script.",
    category: "marketing",
    scopes: ["read_business"],
    manifest: {
      blocks: [starBannerBlock(appServer.url, "stars", "Reviews")],
      embeds: [
        scriptEmbed("tracker", "Tracker", "head", `${appServer.url}/embed.js`, { defaultConfig: { siteId: "abc" } }),
        chatWidgetEmbed(appServer.url),
      ],
      adminPages: [{ pageId: "stats", title: `Stars ${suffix}`, renderUrl: `${appServer.url}/admin` }],
    },
  }));
  const { suffix } = app;

  // the merchant installs it through the consent screen
  await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
  await installApp(page, app.slug);

  // site builder: add the app block; it runs in the live preview, on the storefront's origin, and
  // gets INIT after READY with the default settings
  await page.goto("/admin/pages/home");
  await page.waitForLoadState("networkidle");
  await page.getByRole("button", { name: "Add a block" }).click();
  await page.getByRole("button", { name: /Star banner/ }).click();
  const preview = page.frameLocator("iframe.sb-frame");
  const frameEl = preview.locator('iframe[title="Star banner"]');
  await expect(frameEl).toBeVisible();
  const frame = preview.frameLocator('iframe[title="Star banner"]');
  await expect(frame.locator("#label")).toHaveText("Rate us");
  const handle = await frameEl.elementHandle();
  const inner = (await handle!.contentFrame())!;
  const init = await inner.evaluate(() => (window as any).received[0]);
  expect(init.origin).toBe(new URL(page.url()).origin.replace("localhost", "127.0.0.1"));
  expect(init.data).toMatchObject({
    type: "SERVICE_BLOCK_INIT",
    settings: { color: "#ff8800", title: "Rate us" },
    mode: "editor",
    locale: "en-US",
  });
  expect(typeof init.data.sessionToken).toBe("string");
  const loadId = await inner.evaluate(() => (window as any).loadId);

  // a color change in the panel arrives as UPDATE, without reloading the iframe
  await page.locator('input[type="color"]').first().fill("#00aa55");
  await expect(frame.locator("#box")).toHaveCSS("background-color", "rgb(0, 170, 85)");
  const update = await inner.evaluate(() => (window as any).received.at(-1));
  expect(update.data).toMatchObject({ type: "SERVICE_BLOCK_UPDATE", settings: { color: "#00aa55" } });
  expect(await inner.evaluate(() => (window as any).loadId)).toBe(loadId);

  // RESIZE: 250 px is applied, 900 is held at 400 (heights in the preview's own pixels)
  const height = () => frameEl.evaluate((el) => el.getBoundingClientRect().height);
  await inner.evaluate(() => window.parent.postMessage({ type: "SERVICE_BLOCK_RESIZE", height: 250 }, "*"));
  await expect.poll(height).toBe(250);
  await inner.evaluate(() => window.parent.postMessage({ type: "SERVICE_BLOCK_RESIZE", height: 900 }, "*"));
  await expect.poll(height).toBe(400);
  // a message from a foreign frame (or the preview page itself) is ignored
  const previewFrame = (await (await page.locator("iframe.sb-frame").elementHandle())!.contentFrame())!;
  await previewFrame.evaluate((url) => {
    const foreign = document.createElement("iframe");
    foreign.src = url;
    foreign.id = "foreign";
    foreign.title = "A foreign frame";
    document.body.appendChild(foreign);
  }, `${appServer.url}/other`);
  await expect
    .poll(() =>
      page
        .frame({ url: /\/other$/ })
        ?.evaluate(() => 1)
        .catch(() => 0),
    )
    .toBe(1);
  await page
    .frame({ url: /\/other$/ })!
    .evaluate(() => window.parent.postMessage({ type: "SERVICE_BLOCK_RESIZE", height: 30 }, "*"));
  await previewFrame.evaluate(() => window.postMessage({ type: "SERVICE_BLOCK_RESIZE", height: 40 }, "*"));
  await page.waitForTimeout(300);
  expect(await height()).toBe(400);
  expect(await page.frame({ url: /\/other$/ })!.evaluate(() => (window as any).received.length)).toBe(0);
  await page.getByRole("button", { name: "Save page" }).click();
  await expect(page.getByText("Page saved.")).toBeVisible();

  // the storefront shows the block, the script in the head and the widget at the bottom right
  const response = await page.goto("/s/demo-bistro");
  const csp = response!.headers()["content-security-policy"];
  // a page every visitor sees alike: its inline scripts allowed by their hashes, so that caches may share it (decision 021)
  expect(csp).toMatch(/script-src 'self' 'sha256-/);
  expect(csp).not.toContain("nonce");
  expect(response!.headers()["cache-control"]).toMatch(/^public, /);
  expect(csp).toMatch(new RegExp(`script-src [^;]*${appServer.url.replace(/[.]/g, "\\.")}`));
  expect(csp).toMatch(new RegExp(`frame-src [^;]*${appServer.url.replace(/[.]/g, "\\.")}`));
  await expect(page.locator("head script[data-embed-type=tracker]")).toHaveAttribute(
    "data-settings",
    JSON.stringify({ siteId: "abc" }),
  );
  await expect(page.locator("#app-embed-marker")).toContainText("embed tracker");
  await expect(page.locator(`script[data-embed-type][data-app="${app.slug}"]`)).toHaveCount(1);
  const storefrontBlock = page.frameLocator('.app-block iframe[title="Star banner"]');
  await expect(storefrontBlock.locator("#box")).toHaveCSS("background-color", "rgb(0, 170, 85)");
  await expect(storefrontBlock.locator("#mode")).toHaveText("storefront");
  // the widget starts as a launcher in the bottom-right corner and opens to its frame above it
  const launcher = page.locator(".embed-widget.bottom_right").getByRole("button", { name: "Chat", exact: true });
  const box = (await launcher.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.x + box.width).toBeGreaterThan(viewport.width - 40);
  expect(box.y + box.height).toBeGreaterThan(viewport.height - 40);
  await launcher.click();
  const widget = page.locator(".embed-widget.bottom_right iframe");
  await expect(widget).toBeVisible();
  expect((await widget.boundingBox())!.x + (await widget.boundingBox())!.width).toBeGreaterThan(viewport.width - 40);
  await expect(page.frameLocator(".embed-widget iframe").locator("#label")).toHaveText("Chat with us");
  await page.screenshot({ path: "docs/images/storefront-with-app.png" });

  // the admin page receives service:init with a session token signed with the client secret
  await page.goto("/admin");
  await page.getByRole("link", { name: `Stars ${suffix}` }).click();
  const adminFrame = page.frameLocator(".app-page-frame");
  await expect(adminFrame.locator("#init")).toHaveText("init for Demo Bistro");
  await expect(adminFrame.locator("#query")).toContainText("businessId=");
  await expect(adminFrame.locator("#query")).toContainText("locale=en-US");
  const adminInner = (await (await page.locator(".app-page-frame").elementHandle())!.contentFrame())!;
  const message = await adminInner.evaluate(() =>
    (window as any).received.find((m: any) => m.data?.type === "service:init"),
  );
  expect(message.data).toMatchObject({
    type: "service:init",
    businessName: "Demo Bistro",
    role: "MERCHANT",
    locale: "en-US",
  });
  const { payload } = await jwtVerify(message.data.sessionToken, new TextEncoder().encode(app.clientSecret), {
    audience: app.clientId,
  });
  expect(payload.businessId).toBe(message.data.businessId);
  await expect(page.locator(".app-page-frame")).toHaveAttribute(
    "sandbox",
    "allow-scripts allow-same-origin allow-forms allow-popups",
  );

  // uninstall: the block, the script and the widget are gone, and so are their origins
  await page.goto("/admin/apps");
  const card = page.getByTestId("installed-app").filter({ hasText: app.name });
  await card.getByText("Uninstall…").click();
  await card.getByRole("button", { name: `Uninstall ${app.name}` }).click();
  await expect(page.getByRole("status")).toContainText("uninstalled");
  const after = await page.goto("/s/demo-bistro");
  expect(after!.headers()["content-security-policy"]).not.toContain(appServer.url);
  await expect(page.locator('iframe[title="Star banner"]')).toHaveCount(0);
  // this app's script and widget (the demo shop also runs the demo apps' embeds, decision 062)
  await expect(page.locator(`script[data-embed-type][data-app="${app.slug}"]`)).toHaveCount(0);
  await expect(page.locator(`.embed-widget[data-app="${app.slug}"]`)).toHaveCount(0);
  await expect(page.locator("#app-embed-marker")).toHaveCount(0);
  await appServer.close();
});
