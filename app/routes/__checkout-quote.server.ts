/**
 * The checkout page's total: quote() of the checkout pipeline with the platform's hooks, for the
 * shopper's cart and delivery method, formatted for the page. Shared by the checkout page (loader
 * and action) and its fetcher's resource route (s.$businessSlug.checkout.quote.ts).
 */
import type { Business } from "../../db/schema";
import type { PlatformContext } from "~/platform/core/context";
import { checkoutHooks } from "~/platform/orders/checkout-hooks.server";
import { moneyFormatter, quote, type CartView, type Priced } from "~/storefront.server";

export type DeliveryMethod = "DELIVERY" | "PICKUP";

export type QuoteView =
  | {
      ok: true;
      deliveryMethod: DeliveryMethod;
      subtotal: string;
      deliveryFee: string;
      discount: string | null;
      discountReason: string | null;
      total: string;
      /** minor units: what the shopper was shown, sent back with "Place order" */
      amount: number;
    }
  | { ok: false; deliveryMethod: DeliveryMethod; message: string };

export const deliveryMethodOf = (value: unknown): DeliveryMethod => (value === "PICKUP" ? "PICKUP" : "DELIVERY");

export function priceView(business: Business, deliveryMethod: DeliveryMethod, p: Priced): QuoteView {
  const money = moneyFormatter(business, p.currency);
  return {
    ok: true,
    deliveryMethod,
    subtotal: money(p.subtotal),
    deliveryFee: money(p.deliveryFee),
    discount: p.discount > 0 ? money(p.discount) : null,
    discountReason: p.discountReason,
    total: money(p.amount),
    amount: p.amount,
  };
}

/** The quote of the shopper's cart as the page shows it; null for an empty cart. */
export async function shopperQuote(
  context: Pick<PlatformContext, "db" | "env">,
  business: Business,
  cart: CartView,
  deliveryMethod: DeliveryMethod,
  address?: string | null,
): Promise<QuoteView | null> {
  if (cart.lines.length === 0) return null;
  const items = cart.lines.map((l) => ({ productId: l.productId, quantity: l.quantity }));
  const address_ = deliveryMethod === "DELIVERY" ? address?.trim().slice(0, 500) || undefined : undefined;
  const q = await quote(
    context.db,
    business,
    { items, deliveryMethod, address: address_ },
    { hooks: checkoutHooks(context.db, context.env) },
  );
  if (!q.ok) return { ok: false, deliveryMethod, message: q.message };
  return priceView(business, deliveryMethod, q);
}
