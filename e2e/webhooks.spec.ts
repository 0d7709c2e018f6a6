import http from "node:http";
import { randomBytes } from "node:crypto";
import { execFile, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { listenLocally } from "../app/platform/testing/listen";
import { nodeWebhookHandler } from "../packages/app-sdk/src/index";
import { test, expect, createApp, registerDeveloper, signIn } from "./helpers";

const CLI = new URL("../packages/app-sdk/bin/storefront-apps.js", import.meta.url).pathname;

test("a developer reads the delivery log with attempt details and redelivers", async ({ page, request }) => {
  const received: string[] = [];
  let calls = 0;
  const receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      calls++;
      received.push(String(req.headers["x-service-event-id"]));
      res.writeHead(calls === 1 ? 500 : 200, { "Content-Type": "text/plain" });
      res.end(calls === 1 ? "database down" : "ok");
    });
  });
  const url = `${await listenLocally(receiver)}/hooks`;

  const { email, token, businessId } = await registerDeveloper(request, "Hook Dev", "webhook-pass-1");
  const auth = { Authorization: `Bearer ${token}` };
  const app = await createApp(request, token, {
    name: "Order Pinger",
    slug: `order-pinger-${randomBytes(3).toString("hex")}`,
    description: "Pings",
    category: "automation",
    scopes: ["read_orders", "write_orders"],
    redirectUrl: "https://pinger.example/cb",
    webhookUrl: url,
    webhookEvents: ["order.status_changed"],
  });
  const install = await (await request.post(`/developer/apps/${app.id}/test-install`, { headers: auth })).json();
  const orders = await (
    await request.get("/app-api/orders?limit=50", { headers: { Authorization: `Bearer ${install.accessToken}` } })
  ).json();
  const pending = orders.data.find((o: { status: string }) => o.status === "PENDING");
  await request.patch(`/app-api/orders/${pending.id}/status`, {
    headers: { Authorization: `Bearer ${install.accessToken}` },
    data: { status: "CONFIRMED" },
  });
  await expect.poll(() => calls, { timeout: 15_000 }).toBe(1);
  expect(businessId).toBeTruthy();

  await signIn(page, email, "webhook-pass-1");
  await page.goto(`/portal/apps/${app.id}`);
  await page.getByRole("link", { name: "Webhooks & deliveries" }).click();
  await expect(page.getByRole("heading", { name: "Webhooks", exact: true })).toBeVisible();
  await expect(page.getByText(url)).toBeVisible();
  const delivery = page.getByTestId("delivery").first();
  await expect(delivery).toContainText("RETRYING");
  await expect(delivery).toContainText("last HTTP 500");
  await delivery.locator("summary").first().click();
  await expect(delivery.getByText("database down")).toBeVisible();
  await page.screenshot({ path: ".data/e2e-results/webhook-log.png", fullPage: true });
  await delivery.getByRole("button", { name: "Redeliver" }).click();
  await expect(page.getByRole("status")).toContainText("same X-Service-Event-Id");
  await expect.poll(() => calls, { timeout: 15_000 }).toBe(2);
  expect(received[1]).toBe(received[0]);
  await page.reload();
  await expect(page.getByTestId("delivery").first()).toContainText("SUCCEEDED");
  receiver.close();
});

test("Send a test from the delivery log reaches the developer's machine through storefront-apps listen", async ({
  page,
  request,
  baseURL,
}) => {
  // the developer's local server, verifying with the SDK
  let secret = "";
  const tests: { event: string; webhookId: unknown }[] = [];
  const local = http.createServer(
    nodeWebhookHandler(
      () => secret,
      (e) => void tests.push({ event: e.event, webhookId: e.data.webhookId }),
    ),
  );
  const forwardTo = `${await listenLocally(local)}/webhooks`;

  const { email, token } = await registerDeveloper(request, "Listen Dev", "listen-pass-1");
  const auth = { Authorization: `Bearer ${token}` };
  // its webhook URL answers nothing: only the relay can make a test succeed
  const app = await createApp(request, token, {
    name: "Listen Dev App",
    slug: `listen-dev-${randomBytes(3).toString("hex")}`,
    description: "d",
    category: "other",
    scopes: ["read_orders"],
    redirectUrl: "https://listen.example/cb",
    webhookUrl: "http://127.0.0.1:9/webhooks",
    webhookEvents: ["order.created"],
  });
  secret = (await (await request.post(`/developer/apps/${app.id}/test-install`, { headers: auth })).json())
    .webhookSecret;

  // the CLI, as in a terminal
  const configDir = mkdtempSync(join(tmpdir(), "storefront-apps-e2e-"));
  const env = { ...process.env, STOREFRONT_APPS_CONFIG_DIR: configDir, STOREFRONT_APPS_URL: "" };
  const cli = (...args: string[]) => promisify(execFile)(process.execPath, [CLI, ...args], { env });
  await cli("login", "--email", email, "--password", "listen-pass-1", "--platform", baseURL!);
  await cli("apps", "use", "--app", app.id);
  const lines: string[] = [];
  const listen = spawn(process.execPath, [CLI, "listen", "--forward-to", forwardTo], { env });
  listen.stdout.on("data", (d: Buffer) => lines.push(...d.toString().split("\n").filter(Boolean)));
  await expect
    .poll(() => lines.some((l) => l.startsWith("Listening for Listen Dev App")), { timeout: 20_000 })
    .toBe(true);

  try {
    await signIn(page, email, "listen-pass-1");
    await page.goto(`/portal/apps/${app.id}/webhooks`);
    await expect(page.getByRole("note").filter({ hasText: "storefront-apps listen is connected" })).toBeVisible();
    await expect(page.getByText("No deliveries yet")).toBeVisible();
    await page.getByRole("button", { name: "Send a test" }).click();
    await expect(page.getByRole("status")).toContainText(/Test delivered: HTTP 200 in \d+ ms/);
    expect(tests).toEqual([{ event: "webhook.test", webhookId: expect.stringMatching(/^wh_/) }]);
    await expect.poll(() => lines.some((l) => /webhook webhook\.test\s+-> .* 200 /.test(l))).toBe(true);
    // a test is not a delivery
    await expect(page.getByText("No deliveries yet")).toBeVisible();
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ]) {
      await page.setViewportSize({ width, height });
      await page.waitForTimeout(500); // the phone layout's drawer slides shut after the resize
      await page.screenshot({ path: `.data/e2e-results/webhook-send-test-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // Ctrl-C: the platform stops relaying at once (even within the second it caches "listening"), and the test goes to the app's URL, which does not answer
    const exited = new Promise((r) => listen.on("exit", r));
    listen.kill("SIGINT");
    await exited;
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole("note").filter({ hasText: "storefront-apps listen is connected" })).toHaveCount(0, {
        timeout: 500,
      });
    }).toPass({ timeout: 10_000 });
    await page.getByRole("button", { name: "Send a test" }).click();
    await expect(page.getByRole("status")).toContainText("Test failed: no answer");
    expect(tests).toHaveLength(1);
  } finally {
    if (listen.exitCode === null) listen.kill("SIGTERM");
    local.close();
  }
});
