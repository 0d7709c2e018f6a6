/**
 * The one way the order's life changes an existing order: in a transaction, the business's order
 * locked for update (404 when it is not the business's), then the change; the answer is the order
 * as it stands after the commit. The status machine (status.server.ts) and payment reports
 * (payments.server.ts) both go through it.
 */
import type { Database, Tx } from "../../../db/client";
import { orders, type Order } from "../../../db/schema";
import { lockBusinessRow } from "../core/business-rows.server";
import { getOrder } from "../catalog/queries.server";

export async function changeLockedOrder(
  db: Database,
  businessId: string,
  orderId: string,
  change: (tx: Tx, order: Order) => Promise<void>,
) {
  await db.transaction(async (tx) => {
    await change(tx, await lockBusinessRow(tx, orders, businessId, orderId, "Order not found"));
  });
  return getOrder(db, businessId, orderId);
}
