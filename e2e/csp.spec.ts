/**
 * Every page under its Content-Security-Policy (docs/security.md, "Headers"): a visitor, a merchant,
 * a developer and a reviewer each walk every page their area links to; any CSP violation in the
 * console, or any script error (hydration, RJSF forms, charts), fails the test. Each page is also
 * checked by axe-core (the `test` of ./helpers) and must have a title of its own.
 */
import { type Page } from "@playwright/test";
import { test, expect, signIn, DEMO } from "./helpers";

/** Collects what the browser reports about the policy and script errors while `page` is used. */
function watch(page: Page) {
  const problems: string[] = [];
  page.on("console", (msg) => {
    const text = msg.text();
    if (msg.type() === "error" && /Content Security Policy|Refused to|violates/i.test(text))
      problems.push(`${page.url()}: ${text}`);
  });
  page.on("pageerror", (error) => problems.push(`${page.url()}: ${error.message}`));
  return problems;
}

/**
 * Visits `start` pages and every page they link to within `prefixes` (same origin, no sign-out),
 * breadth first, up to `max` pages; waits for each to hydrate. Returns the paths visited.
 */
async function crawl(page: Page, problems: string[], start: string[], prefixes: string[], max = 60): Promise<string[]> {
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length && seen.size < max) {
    const path = queue.shift()!;
    if (seen.has(path)) continue;
    seen.add(path);
    const res = await page.goto(path);
    expect(res?.status(), path).toBeLessThan(400);
    await page.waitForLoadState("networkidle");
    // hydrated: Remix's router is running
    const hydrated = await page
      .waitForFunction(() => !!(window as any).__remixRouter, null, { timeout: 10_000 })
      .then(() => true)
      .catch(() => false);
    if (!hydrated) problems.push(`${path}: did not hydrate`);
    // every page names itself: its route's meta title, never the platform's bare name
    const title = await page.title();
    if (!title.trim() || title === "Storefront Apps") problems.push(`${path}: no page title of its own ("${title}")`);
    const origin = new URL(page.url()).origin;
    const links = await page.locator("a[href]").evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    for (const href of links) {
      const url = new URL(href);
      if (url.origin !== origin) continue;
      const next = url.pathname + url.search;
      if (
        prefixes.some((p) => url.pathname === p || url.pathname.startsWith(p + "/")) &&
        !seen.has(next) &&
        !/logout|\.json$|\.csv$/.test(url.pathname)
      )
        queue.push(next);
    }
  }
  return [...seen];
}

test("every page works under its Content-Security-Policy", async ({ page, context }) => {
  test.setTimeout(300_000);
  const problems = watch(page);

  // a visitor: home, marketplace, an app, sign-in and sign-up, and a storefront
  const visitor = await crawl(page, problems, ["/", "/marketplace", "/login", "/signup"], ["/marketplace"], 15);
  const shop = await crawl(page, problems, ["/s/demo-bistro"], ["/s/demo-bistro"], 20);
  expect(shop.some((p) => p.includes("/products/"))).toBe(true);
  // a visitor without a cart gets the pages every visitor sees alike (inline scripts by hash); with a
  // cart the same pages are the shopper's own (a nonce): both work (decision 021)
  expect((await page.goto("/s/demo-bistro"))!.headers()["content-security-policy"]).toMatch(
    /script-src 'self' 'sha256-/,
  );
  await page
    .getByRole("button", { name: /^Add to cart/ })
    .first()
    .click();
  await expect(page.getByRole("status").filter({ hasText: "Added to your cart" })).toBeVisible();
  expect((await page.goto("/s/demo-bistro"))!.headers()["content-security-policy"]).toMatch(
    /script-src 'self' 'nonce-/,
  );
  await crawl(
    page,
    problems,
    ["/s/demo-bistro", "/s/demo-bistro/cart", "/s/demo-bistro/checkout"],
    ["/s/demo-bistro"],
    8,
  );

  await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
  const admin = await crawl(page, problems, ["/admin"], ["/admin"], 60);
  // the builder's settings form (RJSF) and its live preview (the storefront's origin) work: select a
  // block in the preview, edit a field, see the preview change, undo (so that nothing is left unsaved)
  await page.goto("/admin/pages/home");
  await page.waitForLoadState("networkidle");
  const preview = page.frameLocator("iframe.sb-frame");
  await preview.getByRole("button", { name: "Select block: Text" }).click();
  await page.getByRole("region", { name: "Settings: Text" }).getByRole("textbox").fill("Checked under the policy");
  await expect(preview.getByText("Checked under the policy")).toBeVisible();
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByRole("status").filter({ hasText: "All changes saved" })).toBeVisible();
  await context.clearCookies();

  await signIn(page, DEMO.developer.email, DEMO.developer.password);
  const portal = await crawl(page, problems, ["/portal"], ["/portal"], 60);
  await context.clearCookies();

  await signIn(page, DEMO.reviewer.email, DEMO.reviewer.password);
  const reviewer = await crawl(page, problems, ["/reviewer"], ["/reviewer"], 20);

  // enough of each area was walked for the test to mean something
  expect(visitor.length).toBeGreaterThanOrEqual(5);
  expect(admin.length).toBeGreaterThanOrEqual(10);
  expect(portal.length).toBeGreaterThanOrEqual(10);
  expect(reviewer.length).toBeGreaterThanOrEqual(1);
  expect(problems).toEqual([]);
});
