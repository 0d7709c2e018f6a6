/** The order a shopper placed, as its confirmation page shows it. */
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { orderItems, orders, type Order, type OrderItem } from "../db/schema";

/** An order of the business with its items; null when it belongs to another business or does not exist. */
export async function orderForShopper(
  db: Db,
  businessId: string,
  orderId: string | undefined,
): Promise<{ order: Order; items: OrderItem[] } | null> {
  if (!orderId || orderId.length > 64) return null;
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.businessId, businessId), eq(orders.id, orderId)));
  if (!order) return null;
  const items = await db.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(asc(orderItems.id));
  return { order, items };
}
