import { test, expect, signIn, signOut, DEMO, publishTestApp, installApp } from "./helpers";
import { startAppServer } from "./app-server";

test("a shopper pays with an app's payment method; the merchant confirms; the app hears both events", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const appServer = await startAppServer();
  const app = await publishTestApp(request, "QR Pay", appServer.url, {
    description: "Pay by QR code.",
    category: "sales",
    scopes: ["read_orders", "write_payments"],
    webhookUrl: `${appServer.url}/webhooks`,
    webhookEvents: ["order.created", "order.status_changed"],
    manifest: {
      hooks: [
        { hookPoint: "checkout.payment_methods", url: "/hooks/payment-methods" },
        { hookPoint: "checkout.create_payment", url: "/hooks/create-payment" },
      ],
    },
  });
  await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
  await installApp(page, app.slug);
  await page.goto("/");
  await signOut(page);

  // the shopper
  await page.goto("/s/demo-bistro");
  await page.getByRole("link", { name: "Menu", exact: true }).click();
  await page.getByRole("button", { name: "Add to cart: Margherita Pizza" }).click();
  await expect(page.getByText("Added to your cart")).toBeVisible();
  await page.getByRole("button", { name: "Add to cart: Tiramisu" }).click();
  await expect(page.getByTestId("cart-link")).toHaveText("Cart (2)");
  await page.getByTestId("cart-link").click();
  // on the cart page (not the menu it came from): both lines, each with its quantity field
  await expect(page.getByRole("heading", { level: 1, name: "Your cart" })).toBeVisible();
  await expect(page.getByLabel("Quantity of Margherita Pizza")).toHaveValue("1");
  await expect(page.getByLabel("Quantity of Tiramisu")).toHaveValue("1");
  await page.getByRole("link", { name: "Checkout", exact: true }).click();
  await page.getByLabel(/^Name/).fill("Olga Shopper");
  await page.getByLabel(/^Phone/).fill("+1 555 0199");
  await page.locator("input[name=deliveryMethod][value=PICKUP]").check();
  await page.getByLabel(/QR Pay/).check();
  await page.screenshot({ path: "docs/images/checkout.png", fullPage: true });
  await page.getByRole("button", { name: /place order/i }).click();
  await expect(page.getByRole("heading", { name: /Thank you/ })).toBeVisible();
  const payNow = page.getByRole("link", { name: "Pay now" });
  await expect(payNow).toHaveAttribute("href", /^https:\/\/qrpay\.example\/pay\/ord_/);
  const orderNumber = (await page.getByRole("heading", { name: /Thank you/ }).textContent())!.match(/#(\d+)/)![1];
  await page.screenshot({ path: "docs/images/order-confirmation.png", fullPage: true });
  const createPayment = appServer.hookCalls.find((c) => c.hookPoint === "checkout.create_payment")!;
  expect(createPayment.body.data).toMatchObject({ paymentMethodId: "qr", currency: "USD" });

  // the merchant moves it to CONFIRMED
  await signIn(page, DEMO.merchant.email, DEMO.merchant.password);
  await page.goto("/admin/orders");
  await page
    .getByRole("link", { name: new RegExp(orderNumber) })
    .first()
    .click();
  await expect(page.getByText("Olga Shopper")).toBeVisible();
  await page.getByRole("button", { name: "Move to confirmed" }).click();
  await expect(page.getByTestId("order-status")).toHaveText("Confirmed");

  // the app's webhook receiver got both events
  await expect
    .poll(() => appServer.webhooks.map((w) => w.event).sort(), { timeout: 20_000 })
    .toEqual(["order.created", "order.status_changed"]);
  const created = appServer.webhooks.find((w) => w.event === "order.created")!;
  expect(created.body.data).toMatchObject({ orderNumber, paymentMethod: `${app.slug}:qr`, deliveryMethod: "PICKUP" });
  const moved = appServer.webhooks.find((w) => w.event === "order.status_changed")!;
  expect(moved.body.data).toMatchObject({ orderNumber, previousStatus: "PENDING", status: "CONFIRMED" });
  await appServer.close();
});
