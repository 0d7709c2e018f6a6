/**
 * The order's status machine (contract 6): the allowed moves, and a move with its history row and
 * events in one transaction. Payment outcomes are in payments.server.ts.
 */
import { eq } from "drizzle-orm";
import type { Database } from "../../../db/client";
import { orders, orderStatusChanges, ORDER_STATUSES, type OrderStatus } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { emitEvent } from "../events/emit.server";
import { changeLockedOrder } from "./locked-order.server";
import { statusMoveEvents } from "./events.server";
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

export function parseOrderStatus(value: unknown): OrderStatus {
  if (typeof value !== "string" || !(ORDER_STATUSES as readonly string[]).includes(value))
    throw new ApiError(400, `status: must be one of ${ORDER_STATUSES.join(", ")}`);
  return value as OrderStatus;
}

/** Moves an order along the allowed moves; 409 for any other move. */
export async function moveOrderStatus(
  db: Database,
  businessId: string,
  orderId: string,
  to: OrderStatus,
  actor: string,
) {
  return changeLockedOrder(db, businessId, orderId, async (tx, order) => {
    if (!ORDER_MOVES[order.status].includes(to))
      throw new ApiError(409, `Cannot move order from ${order.status} to ${to}`);
    const t = now();
    await tx.update(orders).set({ status: to, updatedAt: t }).where(eq(orders.id, orderId));
    await tx
      .insert(orderStatusChanges)
      .values({ id: newId("osc"), orderId, fromStatus: order.status, toStatus: to, actor, createdAt: t });
    for (const event of statusMoveEvents(order, order.status, to)) await emitEvent(tx, event);
    // the shopper hears of a cancellation or a delivery (contract 16), in the move's transaction
    await queueOrderStatusMail(tx, order, to);
  });
}
