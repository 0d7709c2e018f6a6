/**
 * The order's events (spec's event list, contract 7), built in one place: what order.created,
 * order.status_changed, order.delivered, order.cancelled, payment.completed and payment.expired
 * carry, in the newest API version: money as {amount, currency} (core/money.ts); each app gets them
 * in its own version (app-api/version-changes.ts, rendered by the fan-out).
 */
import type { Order, OrderStatus } from "../../../db/schema";
import { money } from "../core/money";
import { event, type EventInput } from "../shapes/events";

type Businessed = { businessId: string };

/** order.created of an order just placed by the checkout (amounts in minor units). */
export function orderCreatedEvent(
  order: Businessed &
    Pick<
      Order,
      | "id"
      | "orderNumber"
      | "amount"
      | "deliveryFee"
      | "currency"
      | "deliveryMethod"
      | "paymentMethod"
      | "isGuest"
      | "createdAt"
    >,
): EventInput {
  return event(order.businessId, "order.created", {
    orderId: order.id,
    orderNumber: order.orderNumber,
    amount: money(order.amount, order.currency),
    deliveryFee: money(order.deliveryFee, order.currency),
    deliveryMethod: order.deliveryMethod,
    paymentMethod: order.paymentMethod,
    isGuest: order.isGuest,
    createdAt: order.createdAt.toISOString(),
  });
}

/** The events of a status move: order.status_changed, and order.delivered or order.cancelled when it ends there. */
export function statusMoveEvents(
  order: Businessed & Pick<Order, "id" | "orderNumber">,
  from: OrderStatus,
  to: OrderStatus,
): EventInput[] {
  const ref = { orderId: order.id, orderNumber: order.orderNumber };
  const events: EventInput[] = [
    event(order.businessId, "order.status_changed", { ...ref, previousStatus: from, status: to }),
  ];
  if (to === "DELIVERED") events.push(event(order.businessId, "order.delivered", ref));
  if (to === "CANCELLED") events.push(event(order.businessId, "order.cancelled", ref));
  return events;
}

/** payment.completed or payment.expired. */
export function paymentEvent(
  order: Pick<Order, "id" | "businessId" | "paymentInvoiceId" | "amount" | "currency">,
  status: "COMPLETED" | "EXPIRED",
): EventInput {
  const data = { orderId: order.id, invoiceId: order.paymentInvoiceId, amount: money(order.amount, order.currency) };
  return event(order.businessId, status === "COMPLETED" ? "payment.completed" : "payment.expired", data);
}
