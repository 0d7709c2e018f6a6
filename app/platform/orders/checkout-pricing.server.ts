/**
 * The checkout's prices (contract 8): the points where apps take part (`CheckoutHooks`; none:
 * `noHooks`), the lines a shopper may buy, and the pricing steps the order and its quote share:
 * order.validate -> checkout.shipping_rates -> order.calculate_discounts; and the refusal when the
 * total changed since the shopper saw it.
 */
import type { Business, Order, Product } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { formatMoney } from "../core/money";

export const BUILT_IN_DELIVERY_FEE = 300; // minor units

export type LineProduct = Pick<Product, "id" | "name" | "price" | "status" | "isAvailable" | "stock">;
export type CheckoutLine = { productId: string; quantity: number; product: LineProduct };

export type OfferedMethod = { id: string; name: string; description?: string; icon?: string; installationId: string };
export type PaymentResult = { paymentUrl?: string; qrCode?: string; invoiceId?: string; expiresAt?: string };

/** The points where apps take part; the hooks domain supplies the real ones. */
export interface CheckoutHooks {
  paymentMethods(business: Business): Promise<OfferedMethod[]>;
  // the checkout's own figures, in minor units; the hooks domain writes each hook call's data from them
  validate(
    business: Business,
    ctx: { items: { productId: string; quantity: number }[]; subtotal: number; deliveryMethod: "DELIVERY" | "PICKUP" },
  ): Promise<{ valid: boolean; reason?: string }>;
  shippingFee(
    business: Business,
    ctx: { deliveryMethod: "DELIVERY" | "PICKUP"; locality?: string; subtotal: number; builtInFee: number },
  ): Promise<number>;
  discounts(
    business: Business,
    ctx: {
      items: { productId: string; quantity: number }[];
      subtotal: number;
      promoDiscount: number;
      deliveryFee: number;
    },
  ): Promise<{ discount: number; reason?: string }>;
  createPayment(business: Business, order: Order, method: OfferedMethod): Promise<PaymentResult | null>;
  /** Optional: wait for bookkeeping the steps left running (their call logs). */
  settle?(): Promise<void>;
}

/** No app takes part: built-in fee, no discount, every order valid, CASH and CARD only. */
export const noHooks: CheckoutHooks = {
  paymentMethods: async () => [],
  validate: async () => ({ valid: true }),
  shippingFee: async (_b, ctx) => ctx.builtInFee,
  discounts: async () => ({ discount: 0 }),
  createPayment: async () => null,
};

/** The quantity wanted of each distinct product. */
export function wantedOf(items: { productId: string; quantity: number }[]): Map<string, number> {
  const wanted = new Map<string, number>();
  for (const item of items) wanted.set(item.productId, (wanted.get(item.productId) ?? 0) + item.quantity);
  return wanted;
}

/** The lines with their products; a 400 naming the first line that cannot be sold. */
export function sellableLines(
  items: { productId: string; quantity: number }[],
  wanted: Map<string, number>,
  rows: LineProduct[],
): CheckoutLine[] {
  const byId = new Map(rows.map((p) => [p.id, p]));
  for (const [id, quantity] of wanted) {
    const p = byId.get(id);
    if (!p) throw new ApiError(400, `Unknown product ${id}`);
    if (p.status !== "ACTIVE" || !p.isAvailable) throw new ApiError(400, `Product ${p.name} (${id}) is not available`);
    if (p.stock !== null && p.stock < quantity)
      throw new ApiError(400, `Product ${p.name} (${id}) has only ${p.stock} left`);
  }
  return items.map((i) => ({ ...i, product: byId.get(i.productId)! }));
}

/** What an order of these lines costs: subtotal, the delivery fee and discounts from the hooks, the total (minor units). */
export type Priced = {
  subtotal: number;
  deliveryFee: number;
  discount: number;
  discountReason: string | null;
  amount: number;
  currency: string;
};

/**
 * The pipeline's pricing steps, shared by checkout() and quote() so that a quote and the order's
 * amount come from the same code: order.validate (a refusal is a 422) -> checkout.shipping_rates ->
 * order.calculate_discounts (capped at the subtotal).
 */
export async function price(
  business: Business,
  hooks: CheckoutHooks,
  lines: CheckoutLine[],
  input: { deliveryMethod: "DELIVERY" | "PICKUP"; address?: string | null },
): Promise<Priced> {
  const subtotal = lines.reduce((s, l) => s + l.product.price * l.quantity, 0);
  const itemRefs = lines.map((l) => ({ productId: l.productId, quantity: l.quantity }));
  const verdict = await hooks.validate(business, { items: itemRefs, subtotal, deliveryMethod: input.deliveryMethod });
  if (!verdict.valid) throw new ApiError(422, verdict.reason || "The order was rejected");

  const builtInFee = input.deliveryMethod === "DELIVERY" ? BUILT_IN_DELIVERY_FEE : 0;
  const deliveryFee = Math.max(
    0,
    Math.round(
      await hooks.shippingFee(business, {
        deliveryMethod: input.deliveryMethod,
        locality: input.address ?? undefined,
        subtotal,
        builtInFee,
      }),
    ),
  );
  const { discount: rawDiscount, reason: discountReason } = await hooks.discounts(business, {
    items: itemRefs,
    subtotal,
    promoDiscount: 0,
    deliveryFee,
  });
  const discount = Math.min(Math.max(0, Math.round(rawDiscount)), subtotal);
  return {
    subtotal,
    deliveryFee,
    discount,
    discountReason: discount > 0 ? (discountReason ?? null) : null,
    amount: subtotal - discount + deliveryFee,
    currency: business.currency,
  };
}

/**
 * The order's total differs from the one the shopper was shown (a hook answered differently since
 * the quote): nothing was written, and `quote` is the new total to show before the shopper places
 * the order again (decision 020).
 */
export class TotalChangedError extends ApiError {
  constructor(
    public quote: Priced,
    public expectedAmount: number,
  ) {
    super(
      409,
      `The total changed: it is ${formatMoney(quote.amount, quote.currency)} now, not ${formatMoney(expectedAmount, quote.currency)}. Check the new total and place the order again.`,
    );
  }
}
