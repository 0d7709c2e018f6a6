/**
 * Trigger fixtures (contract 19): `overrides` set the fields of the object a trigger makes, validated
 * as the real input is (the checkout's schema for orders, the review form's for reviews), with a
 * 400 naming the field under `overrides.`. Orders: `customer` (name, phone, email), `items` (product
 * ids of the sandbox and quantities), `currency` (the sandbox's products'); reviews: `rating`, `body`.
 */
import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../../db/client";
import { products, type Business } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { checkoutSchema } from "../orders/checkout-schema";
import { reviewSchema } from "../catalog/products.server";

export const TriggerOverrides = z
  .object({
    customer: z
      .object({ name: z.string(), phone: z.string(), email: z.string().nullable() })
      .partial()
      .strict()
      .optional()
      .describe("orders: the shopper (name, phone, email)"),
    items: z
      .array(z.object({ productId: z.string(), quantity: z.number() }).strict())
      .optional()
      .describe("orders: lines of products of the sandbox"),
    currency: z.string().optional().describe("orders: the currency of the sandbox's products (checked, not converted)"),
    rating: z.number().optional().describe("reviews: 1-5"),
    body: z.string().optional().describe("reviews: the review's text"),
  })
  .strict()
  .meta({ id: "TriggerOverrides" });
export type Overrides = z.infer<typeof TriggerOverrides>;

const ORDER_KEYS = ["customer", "items", "currency"] as const;
const REVIEW_KEYS = ["rating", "body"] as const;

/** Which overrides an event's made object takes: orders' for order and payment events, reviews' for review events. */
export function overridesFor(event: string): readonly string[] {
  if (event.startsWith("order.") || event.startsWith("payment.")) return ORDER_KEYS;
  if (event.startsWith("review.")) return REVIEW_KEYS;
  return [];
}

const fieldErrors = (error: z.ZodError) =>
  error.issues.map((i) => `overrides.${i.path.join(".")}: ${i.message}`).join("; ");

/** Refuses overrides the event's object has no field for (400 naming it). */
export function checkOverrideKeys(event: string, overrides: Overrides | undefined) {
  if (!overrides) return;
  const allowed = overridesFor(event);
  for (const key of Object.keys(overrides))
    if (!allowed.includes(key))
      throw new ApiError(
        400,
        `overrides.${key}: ${event} ${allowed.length ? `takes ${allowed.join(", ")}` : "takes no overrides"} (orders: customer, items, currency; reviews: rating, body)`,
      );
}

/** The sample checkout input with the overrides applied, validated as the checkout validates a shopper's. */
export async function orderInput<T extends { customer: object; items: unknown[] }>(
  db: Database,
  business: Business,
  sample: T & { paymentMethod?: string },
  overrides: Overrides | undefined,
): Promise<T> {
  if (!overrides) return sample;
  if (overrides.currency !== undefined && overrides.currency !== business.currency)
    throw new ApiError(
      400,
      `overrides.currency: must be ${business.currency}, the currency of your sandbox's products (prices are not converted)`,
    );
  const input = {
    ...sample,
    customer: { ...sample.customer, ...overrides.customer },
    items: overrides.items ?? sample.items,
  };
  const parsed = checkoutSchema.safeParse({ paymentMethod: "CASH", ...input });
  if (!parsed.success) throw new ApiError(400, fieldErrors(parsed.error));
  if (overrides.items) {
    const ids = overrides.items.map((i) => i.productId);
    const found = await db
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.businessId, business.id), inArray(products.id, ids)));
    const known = new Set(found.map((f) => f.id));
    const bad = ids.findIndex((id) => !known.has(id));
    if (bad >= 0) throw new ApiError(400, `overrides.items.${bad}.productId: no product of your sandbox has this id`);
  }
  return input;
}

/** The sample review with `rating` and `body` applied, validated as the review form validates a shopper's. */
export function reviewInput(sample: z.input<typeof reviewSchema>, overrides: Overrides | undefined) {
  const parsed = reviewSchema.safeParse({
    ...sample,
    ...(overrides?.rating !== undefined ? { rating: overrides.rating } : {}),
    ...(overrides?.body !== undefined ? { comment: overrides.body } : {}),
  });
  if (!parsed.success)
    throw new ApiError(
      400,
      parsed.error.issues
        .map((i) => `overrides.${i.path[0] === "comment" ? "body" : i.path.join(".")}: ${i.message}`)
        .join("; "),
    );
  return parsed.data;
}
