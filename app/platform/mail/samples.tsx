/**
 * A sample of every message (the fixture of the templates' snapshot tests, and what the development
 * mailbox's "Send a sample of every message" sends through the outbox, decision 064): invented
 * values, links on example hosts, a shopper's name with markup to show the HTML part escapes it.
 */
import type { MailKind } from "./kinds";
import { invitation, passwordReset, verifyEmail } from "./templates/account";
import { newOrder, orderCancelled, orderConfirmation, orderFulfilled, type OrderView } from "./templates/orders";
import { privacyDone, reviewOutcome, webhookDisabled } from "./templates/notices";
import { newDeviceSignIn, secondFactorChanged } from "./templates/security";

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

export const SAMPLES = {
  verifyEmail: verifyEmail({ name: "Ada", link: "https://apps.example/verify-email?token=T" }),
  passwordReset: passwordReset({ name: "Ada", link: "https://apps.example/reset-password?token=T" }),
  invitation: invitation({
    inviter: "Grace",
    to: "Demo Bistro",
    role: "staff",
    link: "https://apps.example/invitations/T",
  }),
  newSignIn: newDeviceSignIn({
    name: "Ada",
    device: "Firefox on Linux",
    ip: "203.0.113.7",
    at: "2025-03-01T10:00:00.000Z",
    link: "https://apps.example/account/security?end=ses_1",
  }),
  secondFactorChanged: secondFactorChanged({
    name: "Ada",
    change: "totp_enrolled",
    detail: "",
    at: "2025-03-01T10:00:00.000Z",
    link: "https://apps.example/account/security?end=ses_1",
  }),
  orderConfirmation: orderConfirmation(order),
  orderCancelled: orderCancelled(order),
  orderFulfilled: orderFulfilled(order),
  newOrder: newOrder({ ...order, adminLink: "https://apps.example/admin/orders/ord_1", settingsLink }),
  reviewApproved: reviewOutcome({
    appName: "Loyalty",
    approved: true,
    notes: "",
    link: "https://apps.example/portal/apps/app_1",
    settingsLink,
  }),
  reviewRejected: reviewOutcome({
    appName: "Loyalty",
    approved: false,
    notes: "Add a privacy policy.",
    link: "https://apps.example/portal/apps/app_1",
    settingsLink,
  }),
  webhookDisabled: webhookDisabled({
    appName: "Loyalty",
    url: "https://hooks.example/in",
    lastError: "HTTP 500",
    link: "https://apps.example/portal/apps/app_1/webhooks",
    settingsLink,
  }),
  privacyErased: privacyDone({
    kind: "ERASE",
    orders: 3,
    reviews: 1,
    link: "https://apps.example/admin/privacy",
    settingsLink,
  }),
  privacyExported: privacyDone({
    kind: "EXPORT",
    orders: 3,
    reviews: 1,
    link: "https://apps.example/admin/privacy",
    settingsLink,
  }),
};

/** The sample each kind of message is shown with in the mailbox (the rejection: it carries the notes). */
export const SAMPLE_OF_KIND: Record<MailKind, keyof typeof SAMPLES> = {
  "account.verify_email": "verifyEmail",
  "account.password_reset": "passwordReset",
  invitation: "invitation",
  "account.new_sign_in": "newSignIn",
  "account.second_factor_changed": "secondFactorChanged",
  "order.confirmation": "orderConfirmation",
  "order.cancelled": "orderCancelled",
  "order.fulfilled": "orderFulfilled",
  "order.new": "newOrder",
  "app.review_outcome": "reviewRejected",
  "webhook.disabled": "webhookDisabled",
  "privacy.done": "privacyErased",
};
