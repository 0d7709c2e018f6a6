/**
 * Words, not codes (HOUSE_STYLE "People and words"): the one place where the order's statuses,
 * payment statuses, payment methods and delivery methods get the words a merchant reads. The codes
 * stay in the API, the exports' code columns and the database. No server code: pages use it in the
 * browser too.
 */
import type { OrderStatus } from "../../../db/schema";

export type DeliveryMethod = "DELIVERY" | "PICKUP";

const STATUS_WORDS: Record<OrderStatus, string> = {
  PENDING: "Pending",
  CONFIRMED: "Confirmed",
  PREPARING: "Preparing",
  READY: "Ready",
  IN_DELIVERY: "Out for delivery",
  DELIVERED: "Delivered",
  CANCELLED: "Cancelled",
};

/** The words of pickup orders where they differ: a pickup order is never delivered, it is collected. */
const PICKUP_WORDS: Partial<Record<OrderStatus, string>> = {
  READY: "Ready for pickup",
  DELIVERED: "Picked up",
};

/**
 * An order status in words ("Out for delivery"); with the order's delivery method, in that method's
 * words (a pickup order's DELIVERED is "Picked up"). An unknown code is shown as it is.
 */
export function orderStatusLabel(status: string, deliveryMethod?: string | null): string {
  if (deliveryMethod === "PICKUP" && PICKUP_WORDS[status as OrderStatus]) return PICKUP_WORDS[status as OrderStatus]!;
  return STATUS_WORDS[status as OrderStatus] ?? status;
}

/** What "fulfilled" is called for an order of this delivery method ("Mark as picked up"). */
export function fulfilLabel(deliveryMethod: string): string {
  return deliveryMethod === "PICKUP" ? "Mark as picked up" : "Mark as delivered";
}

const PAYMENT_STATUS_WORDS: Record<string, string> = {
  NONE: "Not paid online",
  PENDING: "Awaiting payment",
  COMPLETED: "Paid",
  EXPIRED: "Payment expired",
  FAILED: "Payment failed",
};

/** A payment status in words ("Paid", "Not paid online"). */
export const paymentStatusLabel = (status: string) => PAYMENT_STATUS_WORDS[status] ?? status;

const BUILT_IN_METHOD_WORDS: Record<string, string> = {
  CASH: "Cash",
  CARD: "Card",
};

/**
 * A payment method in words: the built-in ones by name ("Cash", "Card"), an app's method
 * (`<app slug>:<method id>`) by the name the app gave it at checkout, which the order keeps; an
 * order placed before names were kept shows the method's id and the app's slug ("refpay, from
 * reference-app").
 */
export function paymentMethodLabel(code: string, name?: string | null): string {
  if (BUILT_IN_METHOD_WORDS[code]) return BUILT_IN_METHOD_WORDS[code];
  if (name) return name;
  const colon = code.indexOf(":");
  return colon > 0 ? `${code.slice(colon + 1)}, from ${code.slice(0, colon)}` : code;
}

/**
 * The status machine's refusal ("Cannot move order from DELIVERED to PREPARING", the API's words)
 * in the admin's words ("Cannot move order from picked up to preparing"); any other message as it is.
 */
export function moveRefusalWords(message: string, deliveryMethod?: string | null): string {
  const m = /^Cannot move order from ([A-Z_]+) to ([A-Z_]+)$/.exec(message);
  if (!m) return message;
  const words = (s: string) => orderStatusLabel(s, deliveryMethod).toLowerCase();
  return `Cannot move order from ${words(m[1])} to ${words(m[2])}`;
}

/** A delivery method in words. */
export const deliveryMethodLabel = (method: string) =>
  method === "DELIVERY" ? "Delivery" : method === "PICKUP" ? "Pickup" : method;
