import http from "node:http";
import { randomBytes } from "node:crypto";
import { test, expect, signIn } from "./helpers";

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
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;

  const email = `dev-${randomBytes(4).toString("hex")}@example.test`;
  const reg = await request.post("/auth/register", { data: { email, password: "webhook-pass-1", name: "Hook Dev", role: "DEVELOPER" } });
  const { token, businessId } = await reg.json();
  const auth = { Authorization: `Bearer ${token}` };
  const app = await (await request.post("/developer/apps", { headers: auth, data: { name: "Order Pinger", slug: `order-pinger-${randomBytes(3).toString("hex")}`, description: "Pings", category: "automation", scopes: ["read_orders", "write_orders"], redirectUrl: "https://pinger.example/cb", webhookUrl: url, webhookEvents: ["order.status_changed"] } })).json();
  const install = await (await request.post(`/developer/apps/${app.id}/test-install`, { headers: auth })).json();
  const orders = await (await request.get("/app-api/orders?limit=50", { headers: { Authorization: `Bearer ${install.accessToken}` } })).json();
  const pending = orders.data.find((o: { status: string }) => o.status === "PENDING");
  await request.patch(`/app-api/orders/${pending.id}/status`, { headers: { Authorization: `Bearer ${install.accessToken}` }, data: { status: "CONFIRMED" } });
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
