/**
 * A quote: what an order would cost now, by the checkout's own pricing steps, without creating
 * anything (the checkout page's total before "Place order").
 */
import type { Database } from "../../../db/client";
import type { Business } from "../../../db/schema";
import { rawQuery } from "../../../db/sql";
import { ApiError, describeZodError } from "../core/http.server";
import { quoteSchema } from "./checkout-schema";
import {
  noHooks,
  price,
  sellableLines,
  wantedOf,
  type CheckoutHooks,
  type LineProduct,
  type Priced,
} from "./checkout-pricing.server";

/** A quote: what the order would cost now, or why it would be refused (the status the checkout would answer). */
export type Quote = ({ ok: true } & Priced) | { ok: false; status: number; message: string };

/**
 * The products of a quote, read as checkout.server.ts's PRODUCTS_SQL reads them but without taking an order number,
 * and whether any app takes part in the business's checkouts (as in PRODUCTS_SQL).
 */
const QUOTE_PRODUCTS_SQL = `
  select id, name, price, status, is_available as "isAvailable", stock,
    exists (select 1 from installations i join extensions e on e.app_id = i.app_id
            where i.business_id = $1 and i.status = 'ACTIVE' and e.kind = 'hook' and e.is_active) as "hasHooks"
  from products where business_id = $1 and id = any($2::text[])`;

/**
 * What the order would cost if it were placed now, computed by the pipeline's own steps (check
 * products -> order.validate -> checkout.shipping_rates -> order.calculate_discounts) without
 * creating anything: no order number, no order, no event. The checkout page shows it before
 * "Place order"; the hooks are called as for an order, so their answers must not depend on whether
 * an order follows (docs/developers/hooks.md). Never throws for the shopper's input: a refusal is a
 * value with the status the checkout would answer.
 */
export async function quote(
  db: Database,
  business: Business,
  rawInput: unknown,
  options: { hooks?: CheckoutHooks } = {},
): Promise<Quote> {
  try {
    const parsed = quoteSchema.safeParse(rawInput);
    if (!parsed.success) return { ok: false, status: 400, message: describeZodError(parsed.error) };
    const input = parsed.data;
    const wanted = wantedOf(input.items);
    const rows = await rawQuery<LineProduct & { hasHooks: boolean }>(db, QUOTE_PRODUCTS_SQL, [
      business.id,
      [...wanted.keys()],
    ]);
    const lines = sellableLines(input.items, wanted, rows);
    // as in checkout(): a business no app takes part in the checkouts of has no hook registry to read
    const hooks = rows[0]?.hasHooks ? (options.hooks ?? noHooks) : noHooks;
    return { ok: true, ...(await price(business, hooks, lines, input)) };
  } catch (e) {
    if (e instanceof ApiError) return { ok: false, status: e.status, message: e.message };
    throw e;
  } finally {
    await options.hooks?.settle?.();
  }
}
