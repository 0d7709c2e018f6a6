import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client";

/** Counts shown on the dashboards of a business. */
export async function businessSummary(db: Db, businessId: string) {
  const [row] = await db.execute<{
    products: number;
    orders: number;
    reviews: number;
    pages: number;
    open_orders: number;
  }>(sql`
    select
      (select count(*)::int from products where business_id = ${businessId}) as products,
      (select count(*)::int from orders where business_id = ${businessId}) as orders,
      (select count(*)::int from orders where business_id = ${businessId} and status not in ('DELIVERED','CANCELLED')) as open_orders,
      (select count(*)::int from reviews where business_id = ${businessId}) as reviews,
      (select count(*)::int from pages where business_id = ${businessId}) as pages`);
  return {
    products: row.products,
    orders: row.orders,
    openOrders: row.open_orders,
    reviews: row.reviews,
    pages: row.pages,
  };
}
