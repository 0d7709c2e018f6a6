/**
 * Order changes: status moves (contract 6) and payment outcomes, each with its events in the same
 * transaction.
 */
import { and, eq } from "drizzle-orm";
import type { Database } from "../../../db/client";
import { orders, orderStatusChanges, ORDER_STATUSES, type Order, type OrderStatus } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { emitEvent } from "../events/emit.server";
import { toMajor } from "./serialize.server";
import { getOrder } from "./queries.server";

export const ORDER_MOVES: Record<OrderStatus, OrderStatus[]> = {
  PENDING: ["CONFIRMED", "CANCELLED"],
  CONFIRMED: ["PREPARING", "CANCELLED"],
  PREPARING: ["READY", "CANCELLED"],
  READY: ["IN_DELIVERY", "DELIVERED", "CANCELLED"],
  IN_DELIVERY: ["DELIVERED", "CANCELLED"],
  DELIVERED: [],
  CANCELLED: [],
};

export function parseOrderStatus(value: unknown): OrderStatus {
  if (typeof value !== "string" || !(ORDER_STATUSES as readonly string[]).includes(value))
    throw new ApiError(400, `status: must be one of ${ORDER_STATUSES.join(", ")}`);
  return value as OrderStatus;
}

/** Moves an order along the allowed moves; 409 for any other move. */
export async function moveOrderStatus(db: Database, businessId: string, orderId: string, to: OrderStatus, actor: string) {
  await db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(and(eq(orders.businessId, businessId), eq(orders.id, orderId))).for("update");
    if (!order) throw new ApiError(404, "Order not found");
    if (!ORDER_MOVES[order.status].includes(to)) throw new ApiError(409, `Cannot move order from ${order.status} to ${to}`);
    const t = now();
    await tx.update(orders).set({ status: to, updatedAt: t }).where(eq(orders.id, orderId));
    await tx.insert(orderStatusChanges).values({ id: newId("osc"), orderId, fromStatus: order.status, toStatus: to, actor, createdAt: t });
    const ref = { orderId: order.id, orderNumber: order.orderNumber };
    await emitEvent(tx, { businessId, type: "order.status_changed", data: { ...ref, previousStatus: order.status, status: to } });
    if (to === "DELIVERED") await emitEvent(tx, { businessId, type: "order.delivered", data: ref });
    if (to === "CANCELLED") await emitEvent(tx, { businessId, type: "order.cancelled", data: ref });
  });
  return getOrder(db, businessId, orderId);
}

/** The payment app reports the outcome of the payment it created. */
export async function reportPayment(
  db: Database,
  businessId: string,
  installationId: string,
  orderId: string,
  input: { status: "COMPLETED" | "EXPIRED"; invoiceId: string },
) {
  await db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(and(eq(orders.businessId, businessId), eq(orders.id, orderId))).for("update");
    if (!order) throw new ApiError(404, "Order not found");
    if (order.paymentInstallationId !== installationId) throw new ApiError(403, "Only the app that created the order's payment can report its outcome");
    if (order.paymentInvoiceId !== input.invoiceId) throw new ApiError(400, "invoiceId: does not match the order's payment");
    if (order.paymentStatus !== "PENDING") throw new ApiError(409, `The payment is already ${order.paymentStatus}`);
    await settlePayment(tx, order, input.status);
  });
  return getOrder(db, businessId, orderId);
}

/** Marks a pending payment COMPLETED or EXPIRED and emits payment.completed / payment.expired. */
export async function settlePayment(tx: Parameters<Parameters<Database["transaction"]>[0]>[0], order: Order, status: "COMPLETED" | "EXPIRED") {
  await tx.update(orders).set({ paymentStatus: status, updatedAt: now() }).where(eq(orders.id, order.id));
  await emitEvent(tx, {
    businessId: order.businessId,
    type: status === "COMPLETED" ? "payment.completed" : "payment.expired",
    data: { orderId: order.id, invoiceId: order.paymentInvoiceId, amount: toMajor(order.amount) },
  });
}
