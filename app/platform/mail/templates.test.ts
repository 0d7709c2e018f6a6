/**
 * Each template's text part, as a snapshot (decision 064: the text is the same React tree as the HTML,
 * read as plain text), and what every HTML part must hold: language, colour schemes, escaped values.
 */
import { describe, expect, it } from "vitest";
import { renderMessage } from "./render";
import { invitation, passwordReset, verifyEmail } from "./templates/account";
import { newOrder, orderCancelled, orderConfirmation, orderFulfilled, type OrderView } from "./templates/orders";
import { privacyDone, reviewOutcome, webhookDisabled } from "./templates/notices";

const order: OrderView = {
  shop: "Demo Bistro",
  number: "1042",
  customerName: "Ada <b>Lovelace</b>",
  lines: [
    { name: "Margherita", quantity: 2, total: "$24.00" },
    { name: "Lemonade", quantity: 1, total: "$3.50" },
  ],
  totals: [
    { label: "Subtotal", value: "$27.50" },
    { label: "Delivery", value: "$3.00" },
  ],
  amount: "$30.50",
  statusLink: "https://shops.example/s/demo-bistro/orders/ord_1?t=abc",
};
const settingsLink = "https://apps.example/account/emails";

const cases = {
  verifyEmail: verifyEmail({ name: "Ada", link: "https://apps.example/verify-email?token=T" }),
  passwordReset: passwordReset({ name: "Ada", link: "https://apps.example/reset-password?token=T" }),
  invitation: invitation({ inviter: "Grace", to: "Demo Bistro", role: "staff", link: "https://apps.example/invitations/T" }),
  orderConfirmation: orderConfirmation(order),
  orderCancelled: orderCancelled(order),
  orderFulfilled: orderFulfilled(order),
  newOrder: newOrder({ ...order, adminLink: "https://apps.example/admin/orders/ord_1", settingsLink }),
  reviewApproved: reviewOutcome({ appName: "Loyalty", approved: true, notes: "", link: "https://apps.example/portal/apps/app_1", settingsLink }),
  reviewRejected: reviewOutcome({ appName: "Loyalty", approved: false, notes: "Add a privacy policy.", link: "https://apps.example/portal/apps/app_1", settingsLink }),
  webhookDisabled: webhookDisabled({ appName: "Loyalty", url: "https://hooks.example/in", lastError: "HTTP 500", link: "https://apps.example/portal/apps/app_1/webhooks", settingsLink }),
  privacyErased: privacyDone({ kind: "ERASE", orders: 3, reviews: 1, link: "https://apps.example/admin/privacy", settingsLink }),
  privacyExported: privacyDone({ kind: "EXPORT", orders: 3, reviews: 1, link: "https://apps.example/admin/privacy", settingsLink }),
};

describe("templates", () => {
  for (const [name, parts] of Object.entries(cases))
    it(`${name}: its text part`, () => {
      const r = renderMessage({ ...parts, brand: "Demo Bistro" });
      expect(`Subject: ${r.subject}\n\n${r.text}`).toMatchSnapshot();
      expect(r.html).toMatch(/^<!DOCTYPE html><html lang="en">/);
      expect(r.html).toContain('<meta name="color-scheme" content="light dark"/>');
      expect(r.html).not.toContain("<script");
      // every link of the text part is in the HTML part too
      for (const link of r.text.match(/https:\/\/[^\s)]+/g) ?? []) expect(r.html).toContain(link.replace(/&/g, "&amp;"));
    });

  it("escapes values in the HTML part and keeps them as they are in the text part", () => {
    const r = renderMessage({ ...cases.orderConfirmation, brand: "Demo Bistro" });
    expect(r.html).toContain("Ada &lt;b&gt;Lovelace&lt;/b&gt;");
    expect(r.html).not.toContain("<b>Lovelace</b>");
    expect(r.text).toContain("Hello Ada <b>Lovelace</b>, Demo Bistro received your order #1042.");
  });
});
