/**
 * The one way the order's life changes an existing order: in a transaction, the business's order
 * locked for update (404 when it is not the business's), then the change; the answer is the order
 * as it stands after the commit. The status machine (status.server.ts) and payment reports
 * (payments.server.ts) both go through it.
 */
import { and, eq } from "drizzle-orm";
import type { Database, Tx } from "../../../db/client";
import { orders, type Order } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { getOrder } from "../catalog/queries.server";

export async function changeLockedOrder(
  db: Database,
  businessId: string,
  orderId: string,
  change: (tx: Tx, order: Order) => Promise<void>,
) {
  await db.transaction(async (tx) => {
    const [order] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.businessId, businessId), eq(orders.id, orderId)))
      .for("update");
    if (!order) throw new ApiError(404, "Order not found");
    await change(tx, order);
  });
  return getOrder(db, businessId, orderId);
}
