/**
 * Customer privacy (issue 35, contract 15, decision 040): a shopper orders and reviews on the
 * storefront; the merchant finds them in Customer privacy, exports their data (the downloaded JSON
 * holds the order and the review) and erases them; the admin, the storefront's order page, the App
 * API and a later webhook show only the replaced values; the installed app's own server got
 * customer.data_request and customer.redact naming the order and the review, verified with the SDK;
 * the developer portal lists both with their delivery status.
 */
import http from "node:http";
import { readFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { test, expect, DEMO, signIn, signOut, publishTestApp, consentToInstall, shots } from "./helpers";
import { listenLocally } from "../app/platform/testing/listen";
import { verifyWebhook } from "../packages/app-sdk/src/index";

type Received = { path: string; headers: http.IncomingHttpHeaders; raw: string };

/** The app's own server: its OAuth callback exchanges the code (keeping the token and webhook secret), its webhook URL records every delivery. */
async function startApp(platformUrl: string) {
  const received: Received[] = [];
  const creds = { clientId: "", clientSecret: "", token: "", secret: "" };
  let self = "";
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      const url = new URL(req.url ?? "/", "http://app");
      if (url.pathname === "/oauth/callback") {
        const exchanged = await fetch(`${platformUrl}/oauth/token`, {
          method: "POST",
          headers: {
            Authorization: `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString("base64")}`,
            "Content-Type": "application/x-www-form-urlencoded",
          },
          body: new URLSearchParams({
            grant_type: "authorization_code",
            code: url.searchParams.get("code") ?? "",
            redirect_uri: `${self}/oauth/callback`,
          }),
        }).then((r) => r.json());
        creds.token = exchanged.access_token;
        creds.secret = exchanged.webhook_secret;
        res.writeHead(200, { "Content-Type": "text/html" });
        res.end(`<!doctype html><html lang="en"><title>App</title><main><h1>Connected to the app</h1></main></html>`);
        return;
      }
      received.push({ path: url.pathname, headers: req.headers, raw: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end("{}");
    });
  });
  self = await listenLocally(server);
  return { url: self, received, creds, close: () => new Promise<void>((r) => server.close(() => r())) };
}

test("a shopper's data is exported and erased everywhere, and the installed app is told", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(360_000);
  const app = await startApp(baseURL!);
  try {
    const published = await publishTestApp(request, "Privacy Watch", app.url, {
      description: "Keeps a copy of orders and reviews",
      category: "analytics",
      scopes: ["read_orders", "write_orders", "read_reviews"],
      webhookUrl: `${app.url}/webhooks`,
      webhookEvents: ["order.created", "review.created"],
    });
    Object.assign(app.creds, { clientId: published.clientId, clientSecret: published.clientSecret });
    const deliveriesOf = (event: string) =>
      app.received
        .filter((r) => r.path === "/webhooks")
        .map((r) => ({ r, env: JSON.parse(r.raw) }))
        .filter((x) => x.env.event === event);

    // the demo merchant installs the app
    await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
    await consentToInstall(page, published.slug);
    await expect(page.getByRole("heading", { name: "Connected to the app" })).toBeVisible();
    await page.goto("/admin");
    await signOut(page);

    // a shopper orders and reviews on the storefront
    const tag = randomBytes(3).toString("hex");
    const shopper = {
      name: `Marisol Ekwueme-${tag}`,
      email: `Marisol.${tag}@Example.test`,
      phone: "+1 555 0142 7788",
      address: `12 Lantern Row ${tag}`,
    };
    await page.goto("/s/demo-bistro/products/margherita-pizza");
    await page.getByRole("button", { name: "Add to cart" }).click();
    await expect(page.getByTestId("cart-link")).toHaveText("Cart (1)");
    await page.getByTestId("cart-link").click();
    await page.getByRole("link", { name: "Checkout", exact: true }).click();
    await page.getByLabel("Name").fill(shopper.name);
    await page.getByLabel("Phone").fill(shopper.phone);
    await page.getByLabel(/^Email/).fill(shopper.email);
    await page.getByLabel("Delivery address").fill(shopper.address);
    // leaving the field asks for the total for that address; let it come back before placing the order
    await page.getByLabel("Delivery address").blur();
    await expect(page.getByText("Updating the total…")).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Place order/ })).toBeEnabled();
    await page.getByRole("button", { name: /^Place order/ }).click();
    await expect(page.getByRole("heading", { level: 1, name: /^Thank you! Order #\d+$/ })).toBeVisible();
    await expect(page.getByText(`We have your order, ${shopper.name}.`)).toBeVisible();
    const orderPage = page.url();
    const orderId = new URL(orderPage).pathname.split("/").pop()!;
    const orderNumber = (await page.getByRole("heading", { level: 1 }).textContent())!.replace(/\D/g, "");

    await page.goto("/s/demo-bistro/products/margherita-pizza");
    await page.getByLabel("Your name").fill(shopper.name);
    await page.getByLabel(/^Your e-mail/).fill(shopper.email);
    await page.getByLabel("Rating").selectOption("5");
    await page.getByLabel(/^Comment/).fill("Crisp and generous.");
    await page.getByRole("button", { name: "Submit review" }).click();
    await expect(page.getByText(shopper.name).first()).toBeVisible();

    // the merchant finds the shopper (typed in another case): the order is still open, so erasure waits
    await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
    await page.getByRole("link", { name: "Customer privacy" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Customer privacy" })).toBeVisible();
    const find = async (email: string) => {
      await page.getByLabel("Customer's e-mail").fill(email);
      await page.getByRole("button", { name: "Find" }).click();
    };
    await find(` ${shopper.email.toUpperCase()} `);
    await expect(
      page.getByRole("heading", { name: `${shopper.email.toLowerCase()}: 1 order, 1 review` }),
    ).toBeVisible();
    // the search is a POST: the e-mail is in no address (history, access logs)
    expect(page.url()).not.toContain(tag);
    expect(page.url()).not.toContain("email");
    await expect(page.getByTestId("privacy-order")).toHaveCount(1);
    await expect(page.getByTestId("privacy-review")).toHaveCount(1);
    await expect(page.getByRole("note")).toContainText(`#${orderNumber} PENDING`);
    await expect(page.getByRole("button", { name: "Erase…" })).toHaveCount(0);

    // export: the downloaded JSON holds the order and the review
    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export data (JSON)" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^customer-data-prv_.+\.json$/);
    const exported = JSON.parse(await readFile((await download.path())!, "utf8"));
    expect(exported.kind).toBe("EXPORT");
    expect(exported.orders).toEqual([orderId]);
    expect(exported.export.orders[0]).toMatchObject({
      id: orderId,
      customer: { name: shopper.name, phone: shopper.phone, email: shopper.email },
      address: shopper.address,
    });
    expect(exported.export.reviews).toEqual([
      expect.objectContaining({
        authorName: shopper.name,
        comment: "Crisp and generous.",
        productName: "Margherita Pizza",
      }),
    ]);
    const reviewId = exported.export.reviews[0].id as string;
    await expect.poll(() => deliveriesOf("customer.data_request").length).toBe(1);

    // the order is delivered (by the app, through the App API), then the merchant erases
    for (const status of ["CONFIRMED", "PREPARING", "READY", "DELIVERED"]) {
      const moved = await request.patch(`/app-api/orders/${orderId}/status`, {
        headers: { Authorization: `Bearer ${app.creds.token}` },
        data: { status },
      });
      expect(moved.status()).toBe(200);
    }
    await find(shopper.email);
    await page.getByText("Erase…").click();
    const confirm = page.locator("details.confirm");
    await expect(confirm).toContainText("replace the name with “Erased customer”");
    // every installed app that may hold orders or reviews is named (other specs leave theirs installed)
    await expect(confirm).toContainText(/tell .+ to erase their copies/);
    const told = /tell (.+) to erase their copies/.exec((await confirm.textContent()) ?? "")![1]!.split(", ");
    expect(told).toContain(published.name);
    await expect(confirm).toContainText("This cannot be undone.");
    await shots(page, "customer-privacy");
    await page.getByRole("button", { name: "Erase permanently" }).click();
    await expect(page.getByRole("status")).toContainText(
      `Erased: 1 order and 1 review now show "Erased customer". ${told.length} app${told.length === 1 ? " was" : "s were"} told`,
    );
    await expect(page.getByTestId("privacy-request").first()).toContainText("Erasure");
    await page.screenshot({ path: ".data/e2e-results/customer-privacy-erased.png", fullPage: true });

    // the same search now finds nothing
    expect(page.url()).toMatch(/\/admin\/privacy\?done=prv_/);
    await find(shopper.email);
    await expect(page.getByText(`Nothing held for ${shopper.email.toLowerCase()}`)).toBeVisible();

    // the admin's order page, the storefront's order page and the App API show only the replaced values
    await page.goto(`/admin/orders/${orderId}`);
    await expect(page.getByText("Erased customer").first()).toBeVisible();
    await expect(page.getByText(shopper.name)).toHaveCount(0);
    await expect(page.getByText(shopper.address)).toHaveCount(0);
    await page.goto(orderPage);
    await expect(
      page.getByText("We have your order, Erased customer.").or(page.getByText("Erased customer").first()),
    ).toBeVisible();
    await expect(page.getByText(shopper.name)).toHaveCount(0);
    const apiOrder = await (
      await request.get(`/app-api/orders/${orderId}`, { headers: { Authorization: `Bearer ${app.creds.token}` } })
    ).json();
    expect(apiOrder).toMatchObject({
      status: "DELIVERED",
      customer: { name: "Erased customer", phone: "[erased]", email: null },
      address: "[erased]",
    });
    await page.goto("/s/demo-bistro/products/margherita-pizza");
    await expect(page.getByText(shopper.name)).toHaveCount(0);

    // the app's server got customer.redact naming the order and the review, signed with its installation's secret
    await expect.poll(() => deliveriesOf("customer.redact").length).toBe(1);
    const [redact] = deliveriesOf("customer.redact");
    const envelope = verifyWebhook(redact.r.raw, redact.r.headers as Record<string, string>, app.creds.secret);
    expect(envelope.data).toEqual({
      requestId: expect.stringMatching(/^prv_/),
      customerEmail: shopper.email.toLowerCase(),
      orderIds: [orderId],
      reviewIds: [reviewId],
    });
    expect(() => verifyWebhook(redact.r.raw, redact.r.headers as Record<string, string>, "whsec_wrong")).toThrow();

    // a later webhook (the review.created delivery sent again from the log) carries only the replaced name
    const auth = { Authorization: `Bearer ${app.creds.token}` };
    const [registration] = (await (await request.get("/webhooks", { headers: auth })).json()).data;
    const log = (
      await (await request.get(`/webhooks/${registration.id}/deliveries?limit=100`, { headers: auth })).json()
    ).data as { id: string; event: string }[];
    const reviewDelivery = deliveriesOf("review.created").find((d) => d.env.data.id === reviewId)!;
    expect(reviewDelivery.env.data.authorName).toBe(shopper.name);
    const before = app.received.length;
    const again = await request.post(`/webhooks/${registration.id}/deliveries/${reviewDelivery.env.id}/redeliver`, {
      headers: auth,
    });
    expect(again.status()).toBe(202);
    expect(log.some((d) => d.id === reviewDelivery.env.id)).toBe(true);
    await expect.poll(() => app.received.length).toBeGreaterThan(before);
    const resent = verifyWebhook(
      app.received[app.received.length - 1].raw,
      app.received[app.received.length - 1].headers as Record<string, string>,
      app.creds.secret,
    );
    expect(resent.event).toBe("review.created");
    expect(resent.data).toMatchObject({ id: reviewId, authorName: "Erased customer" });
    expect(JSON.stringify(resent)).not.toContain(shopper.name);

    // the developer portal lists both requests with their delivery status
    await page.goto("/admin");
    await signOut(page);
    await signIn(page, DEMO.developer.email, DEMO.developer.password);
    await page.goto(`/portal/apps/${published.id}`);
    await page.getByRole("link", { name: "Privacy requests" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Privacy requests" })).toBeVisible();
    const rows = page.getByTestId("privacy-request");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText("customer.redact");
    await expect(rows.nth(0)).toContainText("SUCCEEDED");
    await expect(rows.nth(1)).toContainText("customer.data_request");
    await shots(page, "portal-privacy-requests");
  } finally {
    await app.close();
  }
});
