/**
 * The order's status machine (contract 6): the allowed moves, and a move with its history row and
 * events in one transaction. "Mark as fulfilled" is a path of those same moves (decision 059).
 * Payment outcomes are in payments.server.ts.
 */
import { eq } from "drizzle-orm";
import type { Database, Tx } from "../../../db/client";
import { orders, orderStatusChanges, ORDER_STATUSES, type Order, type OrderStatus } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { emitEvent } from "../events/emit.server";
import { changeLockedOrder } from "./locked-order.server";
import { statusMoveEvents } from "./events.server";
import { orderStatusLabel } from "./labels";
import { queueOrderStatusMail } from "../mail/queue.server";

export const ORDER_MOVES: Record<OrderStatus, OrderStatus[]> = {
  PENDING: ["CONFIRMED", "CANCELLED"],
  CONFIRMED: ["PREPARING", "CANCELLED"],
  PREPARING: ["READY", "CANCELLED"],
  READY: ["IN_DELIVERY", "DELIVERED", "CANCELLED"],
  IN_DELIVERY: ["DELIVERED", "CANCELLED"],
  DELIVERED: [],
  CANCELLED: [],
};

/** The statuses an order is still open in (neither delivered nor cancelled). */
export const OPEN_STATUSES = ORDER_STATUSES.filter((s) => ORDER_MOVES[s].length > 0);

/**
 * The moves the merchant's admin offers an order: the contract's, less the delivery step for a
 * pickup order (a pickup order is collected at the shop, it is never out for delivery). The App
 * API keeps the contract's moves as they are.
 */
export function merchantMoves(status: OrderStatus, deliveryMethod: string): OrderStatus[] {
  return ORDER_MOVES[status].filter((s) => !(s === "IN_DELIVERY" && deliveryMethod === "PICKUP"));
}

/**
 * The moves from an open status to DELIVERED, along the contract's machine: every step in between,
 * the delivery step (IN_DELIVERY) only for an order that is delivered. Empty for a closed order.
 */
export function fulfilPath(status: OrderStatus, deliveryMethod: string): OrderStatus[] {
  const path: OrderStatus[] = [];
  let at = status;
  while (at !== "DELIVERED" && at !== "CANCELLED") {
    const next: OrderStatus =
      at === "READY" ? (deliveryMethod === "PICKUP" ? "DELIVERED" : "IN_DELIVERY") : ORDER_MOVES[at][0];
    path.push(next);
    at = next;
  }
  return path;
}

export function parseOrderStatus(value: unknown): OrderStatus {
  if (typeof value !== "string" || !(ORDER_STATUSES as readonly string[]).includes(value))
    throw new ApiError(400, `status: must be one of ${ORDER_STATUSES.join(", ")}`);
  return value as OrderStatus;
}

/**
 * One move of the machine on an order locked in `tx`: refused with 409 unless the contract allows
 * it; the status, the history row and the move's events (order.status_changed, plus
 * order.delivered / order.cancelled) written in the transaction.
 */
async function applyMove(tx: Tx, order: Order, from: OrderStatus, to: OrderStatus, actor: string, at: Date) {
  if (!ORDER_MOVES[from].includes(to)) throw new ApiError(409, `Cannot move order from ${from} to ${to}`);
  await tx.update(orders).set({ status: to, updatedAt: at }).where(eq(orders.id, order.id));
  await tx
    .insert(orderStatusChanges)
    .values({ id: newId("osc"), orderId: order.id, fromStatus: from, toStatus: to, actor, createdAt: at });
  for (const event of statusMoveEvents(order, from, to)) await emitEvent(tx, event);
  // the shopper hears of a cancellation or a delivery (contract 16), in the move's transaction
  await queueOrderStatusMail(tx, order, to);
}

/**
 * Moves an order along the allowed moves; 409 for any other move. `merchant`: the admin's rules
 * on top (a pickup order is never moved to IN_DELIVERY).
 */
export async function moveOrderStatus(
  db: Database,
  businessId: string,
  orderId: string,
  to: OrderStatus,
  actor: string,
  options: { merchant?: boolean } = {},
) {
  return changeLockedOrder(db, businessId, orderId, async (tx, order) => {
    if (options.merchant && to === "IN_DELIVERY" && order.deliveryMethod === "PICKUP")
      throw new ApiError(409, "A pickup order is collected at the shop, not delivered: mark it as picked up instead");
    await applyMove(tx, order, order.status, to, actor, now());
  });
}

/**
 * "Mark as fulfilled": an open order moved to DELIVERED (picked up, for a pickup order) in one
 * transaction, through every move of the machine in between (fulfilPath), each with its history
 * row and its events, so that an app sees the same order.status_changed events as if the merchant
 * had clicked each step, and order.delivered at the end. The history rows are a millisecond apart,
 * in the order of the moves. A closed order: 409.
 */
export async function fulfilOrder(db: Database, businessId: string, orderId: string, actor: string) {
  return changeLockedOrder(db, businessId, orderId, async (tx, order) => {
    const path = fulfilPath(order.status, order.deliveryMethod);
    if (path.length === 0)
      throw new ApiError(
        409,
        `Order #${order.orderNumber} is already ${orderStatusLabel(order.status, order.deliveryMethod).toLowerCase()}`,
      );
    const t = now().getTime();
    let from = order.status;
    for (const [i, to] of path.entries()) {
      await applyMove(tx, order, from, to, actor, new Date(t + i));
      from = to;
    }
  });
}
