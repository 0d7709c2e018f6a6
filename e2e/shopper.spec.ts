/**
 * The shopper's view (issue 24): the checkout's final total before "Place order" (with an app's
 * delivery fee and discount), the address only for delivery, the confirmation in the business's
 * time zone; a floating widget on a phone that starts as a launcher and covers no button; and what
 * a first visit of a storefront transfers.
 */
import type { APIRequestContext, Page, Locator } from "@playwright/test";
import {
  apiToken,
  expect,
  expectAccessible,
  signIn,
  signOut,
  test,
  DEMO,
  publishTestApp,
  installApp,
  chatWidgetEmbed,
} from "./helpers";
import { startAppServer } from "./app-server";

const PHONE = { width: 390, height: 844 };
const ZONE = "Asia/Kolkata"; // UTC+5:30: a time in it differs from UTC in both hours and minutes

/** A Margherita Pizza and a Tiramisu in the demo bistro's cart, then on to its checkout page. */
async function pizzaAndTiramisuToCheckout(page: Page) {
  await page.goto("/s/demo-bistro/products");
  await page.getByRole("button", { name: "Add to cart: Margherita Pizza" }).click();
  await expect(page.getByTestId("cart-link")).toHaveText("Cart (1)");
  await page.getByRole("button", { name: "Add to cart: Tiramisu" }).click();
  await expect(page.getByTestId("cart-link")).toHaveText("Cart (2)");
  await page.getByTestId("cart-link").click();
  await page.getByRole("link", { name: "Checkout", exact: true }).click();
}

/** Bytes that crossed the network for a first visit (an empty cache), as Chromium counts them. */
async function firstVisitBytes(page: Page, url: string) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  const urls = new Map<string, string>();
  const sizes: { url: string; bytes: number }[] = [];
  cdp.on("Network.requestWillBeSent", (e) => urls.set(e.requestId, e.request.url));
  cdp.on("Network.loadingFinished", (e) =>
    sizes.push({ url: urls.get(e.requestId) ?? "?", bytes: e.encodedDataLength }),
  );
  await page.goto(url, { waitUntil: "networkidle" });
  await page.waitForTimeout(300);
  await cdp.detach();
  return { total: sizes.reduce((s, r) => s + r.bytes, 0), sizes: sizes.sort((a, b) => b.bytes - a.bytes) };
}

/** Whether a person can press the element where it is: the topmost element at its centre is it (or inside it). */
async function uncovered(target: Locator) {
  return target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!top && (top === el || el.contains(top));
  });
}

/** A published courier app of the e2e app server: its delivery fee and welcome discount hooks (and any embeds). */
function publishCourier(
  request: APIRequestContext,
  name: string,
  appUrl: string,
  options: { description: string; embeds?: unknown[] },
) {
  return publishTestApp(request, name, appUrl, {
    description: options.description,
    category: "shipping",
    scopes: ["write_shipping", "write_checkout"],
    webhookUrl: `${appUrl}/webhooks`,
    webhookEvents: [],
    manifest: {
      hooks: [
        { hookPoint: "checkout.shipping_rates", url: "/hooks/shipping" },
        { hookPoint: "order.calculate_discounts", url: "/hooks/discounts" },
      ],
      ...(options.embeds ? { embeds: options.embeds } : {}),
    },
  });
}

test("a first visit of a storefront transfers less than 200 KB, compressed", async ({ page }) => {
  // straight to the storefront's origin (decision 013), as a shopper's link would be
  const { total, sizes } = await firstVisitBytes(
    page,
    `http://127.0.0.1:${process.env.E2E_PORT ?? 3199}/s/demo-bistro`,
  );
  console.log(
    `first visit of /s/demo-bistro: ${total} bytes\n` +
      sizes
        .slice(0, 8)
        .map((s) => `  ${String(s.bytes).padStart(8)}  ${s.url.replace(/^https?:\/\/[^/]+/, "")}`)
        .join("\n"),
  );
  expect(total).toBeGreaterThan(20_000); // the page, its styles and React did arrive
  expect(total).toBeLessThan(200_000);
  // the page works: hydrated and showing the shop
  await expect(page.getByRole("heading", { name: "Welcome to Demo Bistro" })).toBeVisible();
  await expect(page.locator("html[data-storefront-ready]")).toHaveCount(1);
});

test("checkout shows the final total before the order, follows the delivery method, and the confirmation matches it in the shop's time zone", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const appServer = await startAppServer();
  const app = await publishCourier(request, "Fast Courier", appServer.url, {
    description: "Delivery fees and a welcome discount; a chat widget.",
    embeds: [chatWidgetEmbed(appServer.url)],
  });
  const merchantToken = await apiToken(request, DEMO.merchant.email, DEMO.merchant.password);
  let installationId: string | null = null;
  try {
    // the merchant installs it and sets the shop's time zone
    await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
    await installApp(page, app.slug);
    const installs = await request.get("/merchant/installations?limit=100", {
      headers: { Authorization: `Bearer ${merchantToken}` },
    });
    installationId = (
      (await installs.json()) as { data: { installationId: string; appId: string; status: string }[] }
    ).data.find((i) => i.appId === app.id && i.status === "ACTIVE")!.installationId;
    await page.goto("/admin/settings");
    await page.getByLabel("Time zone").fill(ZONE);
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText("Settings saved.")).toBeVisible();
    await page.goto("/");
    await signOut(page);

    // the shopper, on a phone
    await page.setViewportSize(PHONE);
    await pizzaAndTiramisuToCheckout(page);
    await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();

    // delivery (the default): the app's fee and discount are in the total before anything is placed
    const total = page.getByTestId("checkout-total");
    await expect(page.getByRole("radio", { name: /^Delivery/ })).toBeChecked();
    await expect(page.getByTestId("checkout-fee")).toHaveText("$4.50");
    await expect(page.getByTestId("checkout-discount")).toHaveText("−$1.00");
    await expect(page.getByText("(Welcome offer)")).toBeVisible();
    await expect(total).toHaveText("$22.00"); // 11.50 + 7.00 + 4.50 − 1.00 (the cart said $18.50)
    await expect(page.getByRole("button", { name: "Place order · $22.00" })).toBeVisible();
    await expect(page.getByLabel("Delivery address")).toBeVisible();
    await page.getByLabel("Name").fill("Olga Shopper");
    await page.getByLabel("Phone").fill("+1 555 0199");
    await page.getByLabel("Delivery address").fill("7 Harbour Road");
    // leaving the field asks for the total for that address; let it come back before choosing pickup
    // (in one full-suite run a total for delivery was left showing after a quick switch: see the closing note of session 4)
    await page.getByLabel("Delivery address").blur();
    await expect(page.getByText("Updating the total…")).toHaveCount(0);
    await expect(total).toHaveText("$22.00");
    await page.getByTestId("checkout-total").scrollIntoViewIfNeeded();
    await page.screenshot({ path: ".data/e2e-results/checkout-total-phone.png", fullPage: true });
    await expectAccessible(page);

    // pickup: no fee, the address is not asked, the total follows
    await page.getByRole("radio", { name: /^Pickup/ }).check();
    await expect(total).toHaveText("$17.50");
    await expect(page.getByTestId("checkout-fee")).toHaveText("$0.00");
    await expect(page.getByLabel("Delivery address")).toBeHidden();
    await expect(page.getByTestId("pay-total")).toContainText("$17.50");
    await page.getByRole("radio", { name: /^Delivery/ }).check();
    await expect(total).toHaveText("$22.00");
    await expect(page.getByLabel("Delivery address")).toHaveValue("7 Harbour Road");
    await page.getByRole("radio", { name: /^Pickup/ }).check();
    await expect(total).toHaveText("$17.50");
    await page.getByTestId("pay-total").scrollIntoViewIfNeeded();
    await page.screenshot({ path: ".data/e2e-results/checkout-pickup-phone.png" });

    // the widget's launcher does not cover "Place order"
    const place = page.getByRole("button", { name: "Place order · $17.50" });
    await place.evaluate((el) => el.scrollIntoView({ block: "end" }));
    expect(await uncovered(place)).toBe(true);
    await place.click();

    // the confirmation: the same total, the time in the shop's zone
    await expect(page.getByRole("heading", { level: 1, name: /^Thank you! Order #\d+$/ })).toBeVisible();
    await expect(page.getByTestId("order-total")).toHaveText("$17.50");
    await expect(page.getByText("Welcome offer")).toBeVisible();
    const placed = page.getByTestId("order-placed");
    const iso = (await placed.getAttribute("datetime"))!;
    const expected = new Intl.DateTimeFormat("en-US", {
      timeZone: ZONE,
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
      timeZoneName: "short",
    }).format(new Date(iso));
    await expect(placed).toHaveText(expected);
    expect(expected).toContain("GMT+5:30");
    expect(Math.abs(Date.now() - Date.parse(iso))).toBeLessThan(5 * 60_000);
    await page.screenshot({ path: ".data/e2e-results/confirmation-phone.png", fullPage: true });

    // a product page on the phone: the widget is a small launcher in the corner; "Add to cart" stays clickable
    await page.goto("/s/demo-bistro/products/margherita-pizza");
    const launcher = page.getByRole("button", { name: "Chat", exact: true });
    await expect(launcher).toBeVisible();
    await expect(launcher).toHaveAttribute("aria-expanded", "false");
    await expect(page.locator(".embed-widget iframe")).toHaveCount(0); // nothing of the app loads until it is opened
    const box = (await launcher.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(44);
    expect(box.width).toBeLessThanOrEqual(56);
    expect(box.x + box.width).toBeGreaterThan(PHONE.width - 30);
    expect(box.y + box.height).toBeGreaterThan(PHONE.height - 30);
    await page.screenshot({ path: ".data/e2e-results/product-launcher-phone.png" });
    const add = page.getByRole("button", { name: "Add to cart" });
    // the worst place for it: at the very bottom of the screen, where the launcher sits
    await add.evaluate((el) => el.scrollIntoView({ block: "end" }));
    expect(await uncovered(add)).toBe(true);
    await add.click();
    await expect(page.getByRole("status")).toContainText("Added to your cart");
    // scrolled to the end, no link, button or field of the page lies under the launcher (the page ends with room for it)
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const underLauncher = await page.evaluate(() => {
      const l = document.querySelector(".embed-launcher")!.getBoundingClientRect();
      return [...document.querySelectorAll<HTMLElement>("a, button, input, select, textarea, .sf-footer p")]
        .filter((el) => !el.closest(".embed-widget"))
        .filter((el) => {
          const r = el.getBoundingClientRect();
          return (
            r.width > 0 && r.height > 0 && r.left < l.right && r.right > l.left && r.top < l.bottom && r.bottom > l.top
          );
        })
        .map((el) => el.outerHTML.slice(0, 80));
    });
    expect(underLauncher).toEqual([]);

    // open: a bottom sheet with the app's frame (block protocol: INIT with the embed's settings) and a close button
    await launcher.click();
    await expect(launcher).toHaveAttribute("aria-expanded", "true");
    const sheet = page.getByRole("dialog", { name: "Chat" });
    await expect(sheet).toBeVisible();
    await expect(page.frameLocator(".embed-widget iframe").locator("#label")).toHaveText("Chat with us");
    const sheetBox = (await sheet.boundingBox())!;
    expect(Math.round(sheetBox.width)).toBe(PHONE.width);
    expect(Math.round(sheetBox.y + sheetBox.height)).toBe(PHONE.height);
    const frameEl = page.locator(".embed-widget iframe");
    const inner = (await (await frameEl.elementHandle())!.contentFrame())!;
    expect(await inner.evaluate(() => (window as any).received[0].data)).toMatchObject({
      type: "SERVICE_BLOCK_INIT",
      mode: "storefront",
      blockId: expect.stringContaining(":chat"),
      settings: { title: "Chat with us" },
    });
    await inner.evaluate(() => window.parent.postMessage({ type: "SERVICE_BLOCK_RESIZE", height: 900 }, "*"));
    await expect.poll(async () => (await frameEl.boundingBox())?.height).toBe(400);
    await page.screenshot({ path: ".data/e2e-results/widget-open-phone.png" });
    await expectAccessible(page);
    await page.getByRole("button", { name: "Close Chat" }).click();
    await expect(sheet).toBeHidden();
    await expect(launcher).toBeFocused();
    // opened again: the same frame (not reloaded), and Escape closes it
    const loadId = await inner.evaluate(() => (window as any).loadId);
    await launcher.click();
    await expect(sheet).toBeVisible();
    expect(await inner.evaluate(() => (window as any).loadId)).toBe(loadId);
    await page.keyboard.press("Escape");
    await expect(sheet).toBeHidden();
    await page.getByRole("button", { name: "Add to cart" }).click();
    await expect(page.getByTestId("cart-link")).toHaveText("Cart (2)");

    // on a wide screen the open frame is a panel above its launcher, in the corner
    await page.setViewportSize({ width: 1280, height: 800 });
    await launcher.click();
    const panel = (await sheet.boundingBox())!;
    const corner = (await launcher.boundingBox())!;
    expect(panel.width).toBeLessThan(400);
    expect(panel.y + panel.height).toBeLessThanOrEqual(corner.y);
    expect(panel.x + panel.width).toBeGreaterThan(1280 - 40);
    await page.screenshot({ path: ".data/e2e-results/widget-open-desktop.png" });
  } finally {
    // leave the demo shop as it was for the other specs: UTC, no app
    if (installationId)
      await request.delete(`/merchant/installations/${installationId}`, {
        headers: { Authorization: `Bearer ${merchantToken}` },
      });
    await appServer.close();
  }
});

test("the shopper's first click on Place order is never lost while the total refreshes", async ({ page, request }) => {
  test.setTimeout(120_000);
  // a courier whose fee takes 1.5 s: typing an address and clicking at once starts a refresh on the way to the button
  const appServer = await startAppServer({ shippingDelayMs: 1500 });
  const app = await publishCourier(request, "Slow Courier", appServer.url, {
    description: "Delivery fees by address, slowly.",
  });
  const merchantToken = await apiToken(request, DEMO.merchant.email, DEMO.merchant.password);
  const auth = { headers: { Authorization: `Bearer ${merchantToken}` } };
  let installationId: string | null = null;
  const toCheckout = async () => {
    await pizzaAndTiramisuToCheckout(page);
    await expect(page.getByRole("button", { name: "Place order · $22.00" })).toBeVisible();
    await page.getByLabel("Name").fill("Quick Clicker");
    await page.getByLabel("Phone").fill("+1 555 0142");
  };
  try {
    await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
    await installApp(page, app.slug);
    const installs = await request.get("/merchant/installations?limit=100", auth);
    installationId = (
      (await installs.json()) as { data: { installationId: string; appId: string; status: string }[] }
    ).data.find((i) => i.appId === app.id && i.status === "ACTIVE")!.installationId;
    await page.goto("/");
    await signOut(page);

    // an address with the same fee, and "Place order" pressed at once: the page waits for the total, then places it
    await toCheckout();
    await page.getByLabel("Delivery address").fill("7 Harbour Road");
    const calls = appServer.hookCalls.length;
    await page.getByRole("button", { name: "Place order · $22.00" }).click();
    await expect(page.getByRole("button", { name: "Updating the total, then placing your order…" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: /^Thank you! Order #\d+$/ })).toBeVisible();
    await expect(page.getByTestId("order-total")).toHaveText("$22.00");
    // the click did start a refresh for the typed address (the case that used to lose it)
    expect(
      appServer.hookCalls
        .slice(calls)
        .some((c) => c.hookPoint === "checkout.shipping_rates" && c.body.data.locality === "7 Harbour Road"),
    ).toBe(true);

    // an address with another fee: nothing is placed at a total the shopper has not seen; the new one is shown
    await toCheckout();
    await page.getByLabel("Delivery address").fill("12 Island Lane");
    await page.getByRole("button", { name: "Place order · $22.00" }).click();
    await expect(page.getByTestId("total-changed")).toHaveText(
      "The total for this address is $26.50. Check it, then place your order.",
    );
    await expect(page.getByTestId("checkout-total")).toHaveText("$26.50");
    await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
    await page.screenshot({ path: ".data/e2e-results/checkout-total-changed.png", fullPage: true });
    await page.getByRole("button", { name: "Place order · $26.50" }).click();
    await expect(page.getByRole("heading", { level: 1, name: /^Thank you! Order #\d+$/ })).toBeVisible();
    await expect(page.getByTestId("order-total")).toHaveText("$26.50");

    // exactly the two orders, at the totals shown, in the merchant's list
    await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
    await page.goto("/admin/orders?q=Quick+Clicker");
    const rows = page.getByTestId("order-row");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText("$26.50");
    await expect(rows.nth(1)).toContainText("$22.00");
    await signOut(page);
  } finally {
    if (installationId) await request.delete(`/merchant/installations/${installationId}`, auth);
    await appServer.close();
  }
});

test('without JavaScript the checkout\'s total follows the delivery method through "Update total"', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto("/s/demo-bistro/products/tiramisu");
  await page.getByRole("button", { name: "Add to cart" }).click();
  await page.getByTestId("cart-link").click();
  await page.getByRole("link", { name: "Checkout", exact: true }).click();
  // delivery by default: the built-in fee of 3.00 is in the total
  await expect(page.getByTestId("checkout-fee")).toHaveText("$3.00");
  await expect(page.getByTestId("checkout-total")).toHaveText("$10.00");
  await page.screenshot({ path: ".data/e2e-results/checkout-total-desktop.png", fullPage: true });
  await page.getByLabel("Name").fill("No Script");
  await page.getByLabel("Phone").fill("555 0123");
  await page.getByRole("radio", { name: /^Pickup/ }).check();
  // the address is not asked for pickup, even without JavaScript
  await expect(page.getByLabel("Delivery address")).toBeHidden();
  await page.getByRole("button", { name: "Update total" }).click();
  await expect(page.getByTestId("checkout-total")).toHaveText("$7.00");
  await expect(page.getByLabel("Name")).toHaveValue("No Script");
  await expect(page.getByRole("radio", { name: /^Pickup/ })).toBeChecked();
  await page.getByRole("button", { name: "Place order · $7.00" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /^Thank you! Order #\d+$/ })).toBeVisible();
  await expect(page.getByTestId("order-total")).toHaveText("$7.00");
  await context.close();
});

test.afterAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
  await page.goto("/admin/settings");
  await page.getByLabel("Time zone").fill("UTC");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();
  await page.close();
});
