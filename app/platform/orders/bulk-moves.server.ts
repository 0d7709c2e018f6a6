/**
 * The admin's bulk status move: several orders of one business moved to one status, each through
 * moveOrderStatus (the contract's status machine, its own transaction, the same events as a single
 * move). A move the machine does not allow for one order is reported for that order; the others
 * still move. The target may also be FULFILLED: each order marked as fulfilled (fulfilOrder: every
 * move of the machine up to DELIVERED, decision 059).
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "../../../db/client";
import { orders, type OrderStatus } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { fulfilOrder, moveOrderStatus } from "./status.server";
import { moveRefusalWords } from "./labels";

/** At most this many orders in one bulk move (the list shows 20 a page). */
export const MAX_BULK_MOVE = 100;

/** A bulk move's target: a status, or FULFILLED (delivered or picked up, through every step in between). */
export type BulkTarget = OrderStatus | "FULFILLED";

export type BulkMoveResult =
  | { orderId: string; orderNumber: string; ok: true; to: BulkTarget }
  | { orderId: string; orderNumber: string | null; ok: false; message: string };

export async function bulkMoveOrders(
  db: Database,
  businessId: string,
  orderIds: readonly string[],
  to: BulkTarget,
  actor = "merchant",
): Promise<BulkMoveResult[]> {
  const ids = [...new Set(orderIds.filter((id) => typeof id === "string" && id.length > 0))];
  if (ids.length === 0) throw new ApiError(400, "Select at least one order");
  if (ids.length > MAX_BULK_MOVE) throw new ApiError(400, `Select at most ${MAX_BULK_MOVE} orders at once`);
  // the business's own orders among the ids: anything else is "not found", and is never touched
  const own = await db
    .select({ id: orders.id, orderNumber: orders.orderNumber, deliveryMethod: orders.deliveryMethod })
    .from(orders)
    .where(and(eq(orders.businessId, businessId), inArray(orders.id, ids)));
  const numbers = new Map(own.map((o) => [o.id, o.orderNumber]));
  const methods = new Map(own.map((o) => [o.id, o.deliveryMethod]));
  const results: BulkMoveResult[] = [];
  for (const id of ids) {
    const orderNumber = numbers.get(id) ?? null;
    if (orderNumber === null) {
      results.push({ orderId: id, orderNumber, ok: false, message: "Order not found" });
      continue;
    }
    try {
      // locks the row, checks the move against the machine, writes the history and the events
      if (to === "FULFILLED") await fulfilOrder(db, businessId, id, actor);
      else await moveOrderStatus(db, businessId, id, to, actor, { merchant: true });
      results.push({ orderId: id, orderNumber, ok: true, to });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      results.push({
        orderId: id,
        orderNumber,
        ok: false,
        // the machine's refusal in the admin's words ("Cannot move order from delivered to preparing")
        message: e.status === 404 ? "Order not found" : moveRefusalWords(e.message, methods.get(id)),
      });
    }
  }
  return results;
}
