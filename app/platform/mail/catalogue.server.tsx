/**
 * Each kind's template and what it reads at send time (decision 064). The row holds the cause (an
 * order id, a token id, an app's outcome); the job reads the rest, so a message says what is true when
 * it goes, and an erased shopper's data is not kept in a second place. Links come from PUBLIC_URL
 * (the platform) or STOREFRONT_URL (a shop's pages), never from a request.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { perDatabase } from "../../../db/sql";
import { accounts, businesses, orderItems, orders, type Business, type MailMessage } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { moneyFormatter } from "../core/money";
import { orderPath } from "../core/order-link.server";
import { renderMessage, type Rendered } from "./render";
import { tokenOf } from "./tokens.server";
import { MAIL_KINDS, type MailKind } from "./kinds";
import { invitation, passwordReset, verifyEmail } from "./templates/account";
import { newOrder, orderCancelled, orderConfirmation, orderFulfilled, type OrderView } from "./templates/orders";
import { privacyDone, reviewOutcome, webhookDisabled } from "./templates/notices";
import { newDeviceSignIn, secondFactorChanged } from "./templates/security";
import { SAMPLE_OF_KIND, SAMPLES } from "./samples";

const PLATFORM = "Storefront Apps";
type Parts = { subject: string; preheader: string; body: React.ReactElement };
const str = (v: unknown) => (typeof v === "string" ? v : "");

/* read by every order message (two an order in a sale): built once per database handle */
const orderWithShop = perDatabase((db: Db) =>
  db
    .select({ order: orders, business: businesses })
    .from(orders)
    .innerJoin(businesses, eq(businesses.id, orders.businessId))
    .where(eq(orders.id, sql.placeholder("orderId")))
    .prepare("mail_order_with_shop"),
);
const itemsOfOrder = perDatabase((db: Db) =>
  db
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, sql.placeholder("orderId")))
    .orderBy(asc(orderItems.id))
    .prepare("mail_order_items"),
);

async function orderView(db: Db, env: Env, orderId: string): Promise<{ view: OrderView; business: Business }> {
  const [row] = await orderWithShop(db).execute({ orderId });
  if (!row) throw new Error(`order ${orderId} not found`);
  const items = await itemsOfOrder(db).execute({ orderId });
  return { view: viewOf(env, row.business, row.order, items), business: row.business };
}

function viewOf(
  env: Env,
  business: Business,
  order: Pick<
    typeof orders.$inferSelect,
    | "id"
    | "orderNumber"
    | "customerName"
    | "subtotal"
    | "discount"
    | "discountReason"
    | "deliveryFee"
    | "amount"
    | "currency"
  >,
  items: { name: string; price: number; quantity: number }[],
): OrderView {
  const money = moneyFormatter(business.locale, order.currency);
  const totals = [{ label: "Subtotal", value: money(order.subtotal) }];
  if (order.discount) totals.push({ label: order.discountReason || "Discount", value: `−${money(order.discount)}` });
  if (order.deliveryFee) totals.push({ label: "Delivery", value: money(order.deliveryFee) });
  return {
    shop: business.name,
    number: order.orderNumber,
    customerName: order.customerName,
    lines: items.map((i) => ({ name: i.name, quantity: i.quantity, total: money(i.price * i.quantity) })),
    totals,
    amount: money(order.amount),
    statusLink: env.storefrontUrl + orderPath(env, business.slug, order.id),
  };
}

async function accountName(db: Db, id: string | null) {
  if (!id) return "";
  const [a] = await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, id));
  return a?.name ?? "";
}

/** The subject, HTML and text of a queued message. */
export async function renderQueued(db: Db, env: Env, row: MailMessage): Promise<Rendered> {
  const d = row.data;
  const settingsLink = `${env.publicUrl}/account/emails`;
  const kind = row.kind as MailKind;
  let parts: Parts;
  let brand = PLATFORM;
  // a sample from the development mailbox (queueSamples): the kind's fixture, through the same outbox
  if (d.sample === true && kind in SAMPLE_OF_KIND)
    return renderMessage({
      ...SAMPLES[SAMPLE_OF_KIND[kind]],
      // said in the subject, so that a sample is never taken for a real message in the mailbox
      subject: `[Sample] ${SAMPLES[SAMPLE_OF_KIND[kind]].subject}`,
      brand: MAIL_KINDS[kind].audience === "shopper" ? "Demo Bistro" : PLATFORM,
    });
  switch (kind) {
    case "account.verify_email":
      parts = verifyEmail({
        name: (await accountName(db, row.accountId)) || row.toName,
        link: `${env.publicUrl}/verify-email?token=${tokenOf(env, str(d.tokenId))}`,
      });
      break;
    case "account.password_reset":
      parts = passwordReset({
        name: (await accountName(db, row.accountId)) || row.toName,
        link: `${env.publicUrl}/reset-password?token=${tokenOf(env, str(d.tokenId))}`,
      });
      break;
    case "account.new_sign_in":
      parts = newDeviceSignIn({
        name: (await accountName(db, row.accountId)) || row.toName,
        device: str(d.device),
        ip: str(d.ip),
        at: str(d.at),
        link: `${env.publicUrl}/account/security?end=${encodeURIComponent(str(d.sessionId))}`,
      });
      break;
    case "account.second_factor_changed":
      parts = secondFactorChanged({
        name: (await accountName(db, row.accountId)) || row.toName,
        change: str(d.change),
        detail: str(d.detail),
        at: str(d.at),
        link: `${env.publicUrl}/account/security${d.sessionId ? `?end=${encodeURIComponent(str(d.sessionId))}` : ""}`,
      });
      break;
    case "invitation":
      parts = invitation({
        inviter: str(d.inviter),
        to: str(d.to),
        role: str(d.role),
        link: `${env.publicUrl}/invitations/${tokenOf(env, str(d.tokenId))}`,
      });
      break;
    case "order.confirmation":
    case "order.cancelled":
    case "order.fulfilled": {
      const { view } = await orderView(db, env, str(d.orderId));
      brand = view.shop;
      parts = (
        kind === "order.confirmation" ? orderConfirmation : kind === "order.cancelled" ? orderCancelled : orderFulfilled
      )(view);
      break;
    }
    case "order.new": {
      const { view } = await orderView(db, env, str(d.orderId));
      parts = newOrder({
        ...view,
        adminLink: `${env.publicUrl}/admin/orders/${encodeURIComponent(str(d.orderId))}`,
        settingsLink,
      });
      break;
    }
    case "app.review_outcome":
      parts = reviewOutcome({
        appName: str(d.appName),
        approved: d.approved === true,
        notes: str(d.notes),
        link: `${env.publicUrl}/portal/apps/${encodeURIComponent(str(d.appId))}`,
        settingsLink,
      });
      break;
    case "webhook.disabled":
      parts = webhookDisabled({
        appName: str(d.appName),
        url: str(d.url),
        lastError: str(d.lastError),
        link: `${env.publicUrl}/portal/apps/${encodeURIComponent(str(d.appId))}/webhooks`,
        settingsLink,
      });
      break;
    case "privacy.done":
      parts = privacyDone({
        kind: d.kind === "ERASE" ? "ERASE" : "EXPORT",
        orders: Number(d.orders ?? 0),
        reviews: Number(d.reviews ?? 0),
        link: `${env.publicUrl}/admin/privacy`,
        settingsLink,
      });
      break;
    default:
      throw new Error(`unknown kind ${row.kind}`);
  }
  return renderMessage({ ...parts, brand });
}

/** A shopper message as this business would send it, with a sample order (the merchant's preview). */
export function previewShopperMessage(env: Env, business: Business, kind: MailKind): Rendered {
  const view = viewOf(
    env,
    business,
    {
      id: "ord_preview",
      orderNumber: "1001",
      customerName: "Alex Shopper",
      subtotal: 2400,
      discount: 0,
      discountReason: null,
      deliveryFee: 300,
      amount: 2700,
      currency: business.currency,
    },
    [{ name: "Sample product", price: 1200, quantity: 2 }],
  );
  const template =
    kind === "order.cancelled" ? orderCancelled : kind === "order.fulfilled" ? orderFulfilled : orderConfirmation;
  return renderMessage({ ...template(view), brand: business.name });
}
