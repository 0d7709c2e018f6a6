/**
 * The portal's manifest editor (CodeMirror, issue 24) as a developer uses it: completion of keys
 * from the manifest's JSON Schema, an example inserted, the server's problem shown at its line,
 * format, Check, Save (formatted on the way), and the saved manifest after a reload. Without
 * JavaScript the plain textarea still does the job.
 */
import { type APIRequestContext, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { test, expect, apiToken, createApp, signIn, DEMO } from "./helpers";

async function draftApp(request: APIRequestContext) {
  const token = await apiToken(request, DEMO.developer.email, DEMO.developer.password);
  const slug = `editor-${randomBytes(3).toString("hex")}`;
  return createApp(request, token, {
    name: "Editor Demo",
    slug,
    description: "Shows the manifest editor",
    category: "marketing",
    scopes: ["read_business"],
    redirectUrl: "https://editor-demo.example/oauth/callback",
  });
}

/**
 * A new draft app's manifest page, at this viewport, for the demo developer: the code editor is up
 * (it replaces the textarea) and finds no problems in the empty manifest.
 */
async function openEditor(page: Page, request: APIRequestContext, viewport: { width: number; height: number }) {
  const app = await draftApp(request);
  await page.setViewportSize(viewport);
  await signIn(page, DEMO.developer.email, DEMO.developer.password);
  await page.goto(`/portal/apps/${app.id}/manifest`);
  const editor = page.getByRole("textbox", { name: "Manifest JSON" });
  await expect(editor).toHaveAttribute("contenteditable", "true");
  const live = page.getByTestId("manifest-live-problems");
  await expect(live).toContainText("No problems");
  return { app, editor, live };
}

/** Puts the cursor on the line holding `text`, `offset` characters after the line's indentation. */
async function cursorOn(page: Page, text: string, offset: number) {
  await page.locator(".cm-line", { hasText: text }).first().click();
  await page.keyboard.press("End");
  await page.keyboard.press("Home"); // CodeMirror: to the start of the line's text
  for (let i = 0; i < offset; i++) await page.keyboard.press("ArrowRight");
}

test("the manifest editor completes keys, inserts an example, shows the server's problem at its line, formats, checks and saves", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // the editor replaces the textarea, under the same label
  const { app, editor, live } = await openEditor(page, request, { width: 1280, height: 800 });
  await expect(page.locator('textarea[name="manifest"]')).toBeHidden();

  // an empty object, then `"bl`: the completion offers "blocks" with what it takes
  await editor.click();
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Delete");
  await page.keyboard.type("{");
  await page.keyboard.type('"bl');
  const option = page.getByRole("option", { name: /^blocks/ });
  await expect(option).toBeVisible();
  await expect(page.getByRole("listbox")).not.toContainText("hooks"); // filtered by what was typed
  await expect(page.locator(".cm-completionInfo")).toHaveText("A list of at most 20.");
  await expect(option).toHaveAttribute("aria-selected", "true");
  // CodeMirror ignores Enter for 75 ms after the list opens (interactionDelay), so that fast typing
  // is not taken for a choice; a person is never that fast, a test is
  await page.waitForTimeout(150);
  await page.keyboard.press("Enter");
  await expect(editor).toHaveText('{"blocks": []}');

  // a block example goes into that list, and the server accepts it
  await page
    .getByRole("group", { name: "Insert an example:" })
    .getByRole("button", { name: "Block", exact: true })
    .click();
  await expect(editor).toContainText('"blockType": "example-block"');
  await expect(editor).toContainText('"renderUrl": "https://editor-demo.example/blocks/example-block"');
  await expect(live).toContainText("No problems");

  // an invalid renderUrl: the server's words, below that line and in the list (line 6)
  await cursorOn(page, '"renderUrl"', '"renderUrl": "'.length);
  for (let i = 0; i < 5; i++) await page.keyboard.press("Shift+ArrowRight");
  await page.keyboard.type("ftp");
  const wording = 'blocks[0].renderUrl: must match pattern "^https?://[^\\s]+$"';
  const message = page.locator(".cm-manifest-message", { hasText: wording });
  await expect(message).toBeVisible();
  await expect(page.locator('.cm-line:has-text("ftp://editor-demo.example") + .cm-manifest-messages')).toHaveText(
    wording,
  );
  const badLine = page.locator(".cm-line", { hasText: "ftp://editor-demo.example" });
  await expect(badLine.locator(".cm-lintRange-error").first()).toBeVisible();
  await expect(page.locator(".cm-lint-marker-error")).toHaveCount(1);
  await expect(live).toContainText("1 problem, in the server's words:");
  await expect(live.getByRole("listitem")).toHaveText(`Line 6 ${wording}`);
  await page.screenshot({ path: ".data/e2e-results/manifest-editor-error.png" });

  // Format: 2 spaces; the problem follows its line (now line 7)
  await page.getByRole("button", { name: "Format" }).click();
  await expect(page.locator(".cm-line").nth(0)).toHaveText("{");
  await expect(page.locator(".cm-line").nth(1)).toHaveText('  "blocks": [');
  await expect(live.getByRole("listitem")).toHaveText(`Line 7 ${wording}`);
  await expect(page.locator('.cm-line:has-text("ftp://editor-demo.example") + .cm-manifest-messages')).toHaveText(
    wording,
  );
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: "docs/images/manifest-editor.png" });
  // the editor, its toolbar and its problems pass axe (no serious or critical violation)
  const axe = await new AxeBuilder({ page }).include(".manifest-field").analyze();
  expect(
    axe.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
  ).toEqual([]);
  // "Line 7" takes the cursor there
  await live.getByRole("button", { name: "Line 7" }).click();
  await expect(page.locator(".cm-activeLine")).toContainText('"renderUrl"');

  // fixed: no problems; Check shows the sync plan
  await cursorOn(page, '"renderUrl"', '"renderUrl": "'.length);
  for (let i = 0; i < 3; i++) await page.keyboard.press("Shift+ArrowRight");
  await page.keyboard.type("https");
  await expect(message).toHaveCount(0);
  await expect(live).toContainText("No problems");
  await page.getByRole("button", { name: "Check" }).click();
  await expect(page.getByTestId("sync-plan")).toContainText("create block:example-block");

  // Save formats first: trailing spaces on line 1 never reach the server
  await cursorOn(page, "{", 1);
  await page.keyboard.type("   ");
  const posted = page.waitForRequest(
    (r) =>
      r.method() === "POST" &&
      new URL(r.url()).pathname === `/portal/apps/${app.id}/manifest` &&
      (r.postData() ?? "").includes("intent=save"),
  );
  await page.getByRole("button", { name: "Save manifest" }).click();
  const body = new URLSearchParams((await posted).postData()!);
  const sent = body.get("manifest")!;
  expect(sent).toBe(JSON.stringify(JSON.parse(sent), null, 2));
  await expect(page.getByText("Manifest saved and synced.")).toBeVisible();

  // after a reload: the saved manifest, and the block's extension active
  await page.reload();
  await expect(editor).toContainText('"renderUrl": "https://editor-demo.example/blocks/example-block"');
  await expect(page.getByText("block:example-block")).toBeVisible();
  await expect(live).toContainText("No problems");

  // a new key in the saved block: the keys a block may still have, with what each takes
  await cursorOn(page, '"name": "Example block"', 0);
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await page.keyboard.type('"');
  await expect(page.getByRole("listbox").getByRole("option")).toHaveCount(2);
  await expect(page.getByRole("option", { name: /^iconName/ })).toHaveAttribute("aria-selected", "true");
  await expect(page.locator(".cm-completionInfo")).toHaveText("Text. At most 64 characters.");
  await page.screenshot({ path: ".data/e2e-results/manifest-editor-completion.png" });
  await page.keyboard.press("Escape");
  await expect(page.getByRole("listbox")).toHaveCount(0);

  // keyboard: Tab leaves the editor (it is not a trap)
  await editor.focus();
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => !!document.activeElement?.closest(".cm-editor"))).toBe(false);
});

test("on a phone: enum values complete, narrowed by the embed's kind; new keys are those not written yet", async ({
  page,
  request,
}) => {
  const { editor } = await openEditor(page, request, { width: 390, height: 844 });
  await page.getByRole("group", { name: "Insert an example:" }).getByRole("button", { name: "Script embed" }).click();
  await expect(editor).toContainText('"kind": "GLOBAL_SCRIPT"');
  // the position's value: replaced through the completion, which offers only a script's positions
  await cursorOn(page, '"position"', '"position": "'.length);
  await page.keyboard.press("Control+Space");
  const list = page.getByRole("listbox");
  await expect(list.getByRole("option")).toHaveText(["head", "body_end"]);
  await list.getByRole("option", { name: "head" }).click();
  await expect(page.locator(".cm-line", { hasText: '"position"' })).toHaveText('      "position": "head",');
  // a new key in the embed: `"` lists only what an embed may still have
  await cursorOn(page, '"name": "Example script"', 0);
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await page.keyboard.type('"');
  await expect(list.getByRole("option")).toHaveCount(4);
  for (const [i, key] of ["description", "renderUrl", "settingsSchema", "defaultConfig"].entries())
    await expect(list.getByRole("option").nth(i)).toContainText(key);
  await list.getByRole("option", { name: /^renderUrl/ }).click();
  await expect(page.locator(".cm-line", { hasText: '"renderUrl"' })).toHaveText('      "renderUrl": "",');
  // a renderUrl is allowed on a script embed, but empty it is not: the server says so at its line
  await expect(page.locator('.cm-line:has-text("renderUrl") + .cm-manifest-messages')).toContainText(
    "embeds[0].renderUrl: must match pattern",
  );
  // nothing wider than the phone's screen
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: ".data/e2e-results/manifest-editor-phone.png", fullPage: true });
});

test("without JavaScript the textarea checks and saves the manifest", async ({ browser, request }) => {
  const app = await draftApp(request);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, DEMO.developer.email, DEMO.developer.password);
  await page.goto(`/portal/apps/${app.id}/manifest`);
  const textarea = page.getByLabel("Manifest JSON");
  await expect(textarea).toHaveJSProperty("tagName", "TEXTAREA");
  await textarea.fill(JSON.stringify({ adminPages: [{ pageId: "home", title: "Home", renderUrl: "ftp://x" }] }));
  await page.getByRole("button", { name: "Check" }).click();
  await expect(page.getByTestId("manifest-errors")).toContainText("adminPages[0].renderUrl");
  await page.getByLabel("Manifest JSON").fill(
    JSON.stringify({
      adminPages: [{ pageId: "home", title: "Home", renderUrl: "https://editor-demo.example/admin" }],
    }),
  );
  await page.getByRole("button", { name: "Save manifest" }).click();
  await expect(page.getByText("Manifest saved and synced.")).toBeVisible();
  await expect(page.getByTestId("sync-plan")).toContainText("create adminPage:home");
  await context.close();
});
