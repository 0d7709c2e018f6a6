/**
 * A shop's worth of orders for the export tests, written in one statement (generate_series) and
 * the same every time: order numbers, times (with microseconds a JavaScript Date cannot hold),
 * statuses, methods, currencies, and the cells a CSV must take care of (formulas, commas, quotes,
 * line breaks, accents, no e-mail, no address). `tag` keeps ids apart between businesses of one database.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client";

export async function seedExportOrders(db: Db, businessId: string, n: number, tag: string) {
  await db.execute(sql`
    insert into orders (id, business_id, order_number, status, subtotal, discount, delivery_fee, amount, currency,
      delivery_method, payment_method, payment_method_name, payment_status, customer_name, customer_phone,
      customer_email, address, notes, created_at, updated_at)
    select 'ord_' || ${tag} || '_' || lpad(g::text, 7, '0'), ${businessId}, (1000 + g)::text,
      (array['PENDING','CONFIRMED','PREPARING','READY','IN_DELIVERY','DELIVERED','CANCELLED'])[1 + g % 7],
      500 + g % 4000, (g % 3) * 100, case when g % 2 = 0 then 300 else 0 end,
      500 + g % 4000 - (g % 3) * 100 + case when g % 2 = 0 then 300 else 0 end,
      case when g % 50 = 0 then 'JPY' else 'USD' end,
      case when g % 2 = 0 then 'DELIVERY' else 'PICKUP' end,
      (array['CASH','CARD','app_pay'])[1 + g % 3], case when g % 3 = 2 then 'RefPay' end,
      (array['NONE','PENDING','COMPLETED','EXPIRED','FAILED'])[1 + g % 5],
      case when g % 97 = 0 then '=cmd|"/c calc"!A1' when g % 89 = 0 then 'Smith, Jane' when g % 7 = 0 then 'Chloé ' || g
        else 'Customer ' || g end,
      '+1 555 ' || lpad((g % 10000)::text, 4, '0'),
      case when g % 5 = 0 then null when g % 101 = 0 then '@evil.example' else 'c' || g || '@example.com' end,
      case when g % 2 = 0 then g || ' Main St, Springfield' end,
      case when g % 13 = 0 then 'Ring twice, "please"' || chr(10) || 'then wait' end,
      '2025-01-01T00:00:00Z'::timestamptz + g * interval '37 minutes 13.123456 seconds',
      '2025-01-01T00:00:00Z'::timestamptz
    from generate_series(1, ${n}::int) g`);
  await db.execute(sql`
    insert into order_items (id, order_id, product_id, name, price, quantity)
    select 'itm_' || ${tag} || '_' || g || '_' || k, 'ord_' || ${tag} || '_' || lpad(g::text, 7, '0'), 'prd_' || k,
      (array['Margherita', 'Tiramisu, large'])[k], 300 * k, 1 + (g + k) % 3
    from generate_series(1, ${n}::int) g, generate_series(1, 2) k
    where g % 3 <> 0 and (k = 1 or g % 2 = 0)`);
}

/** The filters the tests export: everything, a date range in another zone, a search sorted by amount (ties by id). */
export const EXPORT_FILTERS = [
  { query: "", timeZone: "UTC" },
  { query: "from=2025-01-20&to=2025-02-10&sort=oldest", timeZone: "America/New_York" },
  { query: "q=customer+1&sort=amount_desc", timeZone: "Asia/Tokyo" },
] as const;
