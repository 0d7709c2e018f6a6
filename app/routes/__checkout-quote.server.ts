/**
 * The checkout page's total: quote() of the checkout pipeline with the platform's hooks, for the
 * shopper's cart and delivery method, formatted for the page. Shared by the checkout page (loader
 * and action) and its fetcher's resource route (s.$businessSlug.checkout.quote.ts). And what the
 * checkout page answers when it refuses an order (checkoutRefusal).
 */
import type { Business } from "../../db/schema";
import type { PlatformContext } from "~/platform/core/context";
import { ApiError } from "~/platform/core/http.server";
import { randomToken } from "~/platform/core/ids.server";
import { checkoutHooks } from "~/platform/orders/checkout-hooks.server";
import { moneyFormatter, quote, TotalChangedError, type CartView, type Priced } from "~/storefront.server";

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

export type CheckoutField = "name" | "phone" | "email" | "deliveryMethod" | "address" | "notes" | "paymentMethod";
export type CheckoutValues = Record<CheckoutField, string>;

/** What the checkout page's action answers when it shows the page again. */
export type CheckoutAnswer = {
  error: string | null;
  fieldErrors: Partial<Record<CheckoutField, string>>;
  values: CheckoutValues;
  quote: QuoteView | null;
  checkoutKey: string;
};

/** The shopper's mistakes, field by field: each field's message next to it, all of them in the alert. */
export class CheckoutFieldsError extends ApiError {
  constructor(
    readonly fieldErrors: Partial<Record<CheckoutField, string>>,
    other: string[] = [],
  ) {
    super(400, `Please check your details: ${[...new Set([...Object.values(fieldErrors), ...other])].join(" ")}`);
  }
}

/**
 * The page again after a refusal (the form-action helper's error answer): the message, the fields
 * in error, what the shopper typed, the total for the method they chose (quoted again, or the
 * pipeline's new total when it changed under them) and a fresh idempotency key.
 */
export async function checkoutRefusal(
  context: Pick<PlatformContext, "db" | "env">,
  business: Business,
  cart: CartView,
  e: ApiError,
  values: CheckoutValues,
): Promise<CheckoutAnswer> {
  const method = deliveryMethodOf(values.deliveryMethod);
  const fieldErrors = e instanceof CheckoutFieldsError ? e.fieldErrors : {};
  const checkoutKey = newCheckoutKey();
  if (e instanceof TotalChangedError) {
    const now = priceView(business, method, e.quote);
    const error =
      e.expectedAmount < 0
        ? "Check the total, then place your order."
        : `The total changed since it was shown: it is ${now.ok ? now.total : ""} now, not ${moneyFormatter(business)(e.expectedAmount)} (the delivery fee or a discount changed). Nothing was ordered yet: check the new total and place your order again.`;
    return { error, fieldErrors, values, quote: now, checkoutKey };
  }
  const quote = await shopperQuote(context, business, cart, method, values.address);
  return { error: e.message, fieldErrors, values, quote, checkoutKey };
}

/** A new idempotency key for the next "Place order" (a refused one may be sent again, changed). */
export const newCheckoutKey = () => `sf-${randomToken(18)}`;
