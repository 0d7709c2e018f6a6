/**
 * App billing end to end (issue 33): the reference app's plan on the marketplace, the merchant
 * installs and approves the subscription, the app records usage, the clock moves past the period,
 * the closing writes the invoice, and the merchant's Billing page and the developer's Earnings
 * agree to the unit with what this test computes.
 */
import { randomBytes } from "node:crypto";
import { startReferenceApp } from "../examples/reference-app/app";
import { REFERENCE_PRICING, REFERENCE_SCOPES, referenceManifest } from "../examples/reference-app/manifest";
import { test, expect, signIn, signOut, DEMO, publishApp, shots, apiToken } from "./helpers";

const DAY = 86_400_000;

test("a plan with usage: marketplace, approval, usage, invoice, earnings", async ({ page, request, baseURL }) => {
  test.setTimeout(300_000);
  const app = await startReferenceApp({ platformUrl: baseURL!, clientId: "pending", clientSecret: "pending" });
  const suffix = randomBytes(3).toString("hex");
  const published = await publishApp(request, {
    name: `Loyalty club ${suffix}`,
    slug: `loyalty-club-${suffix}`,
    description: "Points, rewards and loyalty SMS.",
    category: "loyalty",
    scopes: REFERENCE_SCOPES,
    redirectUrl: `${app.url}/oauth/callback`,
    webhookUrl: `${app.url}/webhooks`,
    manifest: referenceManifest(app.url),
    pricing: REFERENCE_PRICING,
  });
  app.setCredentials(published.clientId, published.clientSecret);
  const clock = `http://127.0.0.1:${Number(new URL(baseURL!).port) + 1000}/clock`;
  const shift = 30 * DAY + 60_000;
  let clockMoved = false;
  try {
    // the plan on the marketplace card and the app page
    await page.goto(`/marketplace?q=${encodeURIComponent(published.name)}`);
    const card = page.locator(".app-card", { hasText: published.name });
    await expect(card).toContainText("Free plan; paid from $9.99/month");
    await expect(card).toContainText("7-day trial");
    await page.goto(`/marketplace/${published.slug}`);
    await expect(page.getByRole("table")).toContainText("$9.99/month + usage up to $20.00");

    // the merchant installs, then approves the plan the app asks for
    await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
    await page.goto(`/marketplace/${published.slug}`);
    await page.getByRole("link", { name: "Install" }).click();
    await expect(page.getByRole("heading", { name: "Pricing" })).toBeVisible();
    await page.getByRole("button", { name: "Install" }).click();
    await page.waitForURL(/\/admin\/apps\//);
    const businessId = app.store.businesses()[0] ?? "";
    expect(businessId).not.toBe("");
    await page.goto(`${app.url}/billing/subscribe?businessId=${businessId}`);
    await expect(page.getByRole("heading", { name: `Subscribe to ${published.name}` })).toBeVisible();
    await expect(page.getByTestId("confirm-price")).toHaveText("$9.99/month + usage up to $20.00");
    await shots(page, "billing-confirm");
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page.locator("#billing-status")).toHaveText("Plan active");

    // the app records usage: 3 SMS of 25 cents, one retried with its key (charged once), one over the cap refused
    const usage = async (amount: number, key: string) =>
      request.post(`${app.url}/billing/usage`, { data: { businessId, description: "Loyalty SMS", amount, key } });
    for (const key of ["sms-1", "sms-2", "sms-3", "sms-3"]) expect((await usage(25, key)).status()).toBe(201);
    const refused = await usage(5000, "too-much");
    expect(refused.status()).toBe(409);
    expect((await refused.json()).message).toContain("would pass the usage cap of 2000 with a balance of 75");
    const expectedUsage = 3 * 25;

    await page.goto("/admin/billing");
    // the demo shop pays for a demo app too (decision 062): this app's subscription is its own card
    const subscription = page.getByTestId("subscription").filter({ hasText: published.name });
    await expect(subscription.getByTestId("usage-used")).toHaveText("$0.75");
    await expect(subscription.getByTestId("usage-cap")).toHaveText("$20.00");
    await shots(page, "admin-billing-active");

    // 30 days and a minute later the period closes: 7 trial days free, 23 of 30 billed
    const moved = await request.post(`${clock}?ms=${shift}`);
    expect(moved.status()).toBe(200);
    clockMoved = true;
    const recurring = Math.round((999 * 23) / 30); // 766
    const gross = recurring + expectedUsage;
    // the platform's 15% is taken per invoice line, rounded down (decision 043)
    const fee = Math.floor((recurring * 15) / 100) + Math.floor((expectedUsage * 15) / 100);

    // the session ended with the clock: sign in again
    await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
    await page.goto("/admin/billing");
    // one invoice a month per business: this app's two lines, beside any of the demo app's
    const invoice = page.getByTestId("invoice").first();
    const lines = invoice.getByTestId("invoice-line").filter({ hasText: published.name });
    await expect(lines).toHaveCount(2);
    const minors = await lines.evaluateAll((rows) => rows.map((r) => Number(r.getAttribute("data-minor"))));
    expect(minors.sort((a, b) => a - b)).toEqual([expectedUsage, recurring].sort((a, b) => a - b));
    // the total is the sum of every line of the invoice
    const all = await invoice
      .getByTestId("invoice-line")
      .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute("data-minor"))));
    const total = all.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(gross);
    await expect(invoice.getByTestId("invoice-total")).toHaveText(`$${(total / 100).toFixed(2)}`);
    await shots(page, "admin-billing-invoice");
    await signOut(page);

    await signIn(page, DEMO.developer.email, DEMO.developer.password);
    await page.goto(`/portal/apps/${published.id}/earnings`);
    const month = new Date(Date.now() + 30 * DAY + 60_000).toISOString().slice(0, 7);
    const row = page.locator(`[data-testid="earnings-row"][data-month="${month}"]`);
    await expect(row).toHaveAttribute("data-gross", String(gross));
    await expect(row).toHaveAttribute("data-fee", String(fee));
    await expect(row).toHaveAttribute("data-net", String(gross - fee));
    await shots(page, "portal-earnings");
  } finally {
    // leave the demo shop and the clock as they were for the other specs (the journey places its own
    // reference app's blocks; webhook signatures and order times are checked against the real time)
    if (clockMoved) expect((await request.post(`${clock}?ms=${-shift}`)).status()).toBe(200);
    const token = await apiToken(request, DEMO.merchant.email, DEMO.merchant.password);
    const auth = { headers: { Authorization: `Bearer ${token}` } };
    const installs = (await (await request.get("/merchant/installations?limit=100", auth)).json()) as {
      data: { installationId: string; appId: string; status: string }[];
    };
    for (const i of installs.data.filter((x) => x.appId === published.id && x.status === "ACTIVE"))
      expect((await request.delete(`/merchant/installations/${i.installationId}`, auth)).status()).toBe(200);
    await app.close();
  }
});
