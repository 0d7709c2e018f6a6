/**
 * The portal's developer tools in a browser (contract 19, issue 46): the overview's sandbox clock
 * shows the sandbox's date and advances it, the period of a test subscription closing into a test
 * invoice on the sandbox admin's Billing page; the app's Live logs page shows an App API call made
 * meanwhile without a reload, and its filters narrow the list.
 */
import { randomBytes } from "node:crypto";
import { test, expect, createApp, registerDeveloper, signIn, shots } from "./helpers";

const usd = (amount: number) => ({ amount, currency: "USD" });
const PLAN = {
  id: "pro",
  name: "Pro",
  kind: "RECURRING",
  price: usd(3000),
  interval: "EVERY_30_DAYS",
  trialDays: 14,
  usageCap: usd(1000),
};
const DAY_MS = 86_400_000;

async function sandboxApp(request: import("@playwright/test").APIRequestContext, name: string) {
  const password = "devtools-pass-1";
  const dev = await registerDeveloper(request, name, password);
  const app = await createApp(request, dev.token, {
    name: `${name} App`,
    slug: `devtools-${randomBytes(4).toString("hex")}`,
    description: "An app trying the developer tools",
    category: "marketing",
    scopes: ["read_orders"],
    redirectUrl: "https://devtools.example/oauth/callback",
    pricing: [PLAN],
  });
  const auth = { Authorization: `Bearer ${dev.token}` };
  const inst = await request.post(`/developer/apps/${app.id}/test-install`, { headers: auth });
  expect(inst.status(), await inst.text()).toBe(201);
  const { accessToken } = (await inst.json()) as { accessToken: string };
  return { ...dev, password, app, auth, accessToken };
}

test("the sandbox clock: the date shown, advanced by the button, a test invoice in the sandbox's billing", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { email, password, auth, accessToken } = await sandboxApp(request, "Clock Tester");
  // a test subscription, approved in the sandbox, with some usage
  const sub = await request.post("/app-api/billing/subscriptions", {
    headers: { Authorization: `Bearer ${accessToken}` },
    data: { planId: "pro", returnUrl: "https://devtools.example/billing/done" },
  });
  expect(sub.status(), await sub.text()).toBe(201);
  const { id: subId } = (await sub.json()) as { id: string };
  expect((await request.post(`/merchant/billing/subscriptions/${subId}/approve`, { headers: auth })).status()).toBe(
    200,
  );

  await signIn(page, email, password);
  await page.goto("/portal");
  const clock = page.getByRole("form", { name: "Sandbox clock" });
  const today = new Date().toISOString().slice(0, 10);
  await expect(clock.getByTestId("sandbox-date")).toHaveText(today);
  await expect(clock).toContainText("(real time)");
  await shots(page, "devtools-clock-real-time");

  await clock.getByLabel("Days").fill("31");
  await clock.getByTestId("advance-clock").click();
  const ahead = new Date(Date.now() + 31 * DAY_MS).toISOString().slice(0, 10);
  await expect(clock.getByTestId("sandbox-date")).toHaveText(ahead);
  await expect(clock).toContainText("(31 days ahead)");
  const happened = clock.getByTestId("clock-happened");
  await expect(happened.getByRole("listitem")).toHaveText([
    /: Trial ended sub_/,
    /: Billing period closed into a test invoice sub_/,
  ]);
  await shots(page, "devtools-clock-advanced");

  // the period closed into a test invoice, on the sandbox admin's Billing page
  await happened.getByRole("link", { name: "Sandbox billing →" }).click();
  await expect(page).toHaveURL(/\/admin\/billing$/);
  await expect(page.getByText("Test invoice: never paid").first()).toBeVisible();
  await expect(page.getByText("Pro (16 of 30 days)").first()).toBeVisible();
  // the subscription's trial is over on the sandbox's clock, and the page says so
  await expect(page.getByTestId("subscription").first()).toContainText("Trial ended");
  await shots(page, "devtools-sandbox-billing-invoice");
});

test("live logs: an App API call appears on the page as it happens, and the filters narrow the list", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { email, password, app, accessToken } = await sandboxApp(request, "Logs Tester");
  const bearer = { Authorization: `Bearer ${accessToken}` };

  await signIn(page, email, password);
  await page.goto(`/portal/apps/${app.id}`);
  await page.getByRole("link", { name: "Live logs" }).click();
  await expect(page).toHaveURL(new RegExp(`/portal/apps/${app.id}/logs$`));
  await expect(page.getByTestId("logs-state")).toHaveText("Live");
  await expect(page.getByTestId("logs-empty")).toContainText("Nothing yet");
  await shots(page, "devtools-logs-empty");

  // two calls with the test installation's token, made while the page is open: one answered, one 404
  expect((await request.get("/app-api/orders?limit=1", { headers: bearer })).status()).toBe(200);
  expect((await request.get("/app-api/orders/ord_nothere", { headers: bearer })).status()).toBe(404);
  const table = page.getByTestId("logs-table");
  await expect(table.getByText("GET /app-api/orders?limit=1", { exact: true })).toBeVisible();
  await expect(table.getByText("GET /app-api/orders/ord_nothere")).toBeVisible();
  await expect(table.locator("tbody tr")).toHaveCount(2);
  await shots(page, "devtools-logs-live");

  // the status filter: the failed call only
  await page.getByLabel("Status").selectOption("failed");
  await expect(table.locator("tbody tr")).toHaveCount(1);
  await expect(table.locator("tbody tr")).toContainText("404");
  // the kind filter: no webhook deliveries yet, said so
  await page.getByLabel("Status").selectOption("");
  await page.getByLabel("Kind").selectOption("delivery");
  await expect(page.getByTestId("logs-empty")).toContainText("Nothing yet matches the filters");
  await page.getByLabel("Kind").selectOption("request");
  await expect(table.locator("tbody tr")).toHaveCount(2);
  await shots(page, "devtools-logs-filtered");
});
