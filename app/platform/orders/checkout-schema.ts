/**
 * The checkout's input (contract 6, POST /app-api/orders, and the storefront's checkout form) and
 * the quote's. No server code: the storefront's checkout page may import it into the browser
 * bundle, and the OpenAPI document is drawn from the same schema.
 */
import { z } from "zod";

export const itemsSchema = z
  .array(
    z.object({
      productId: z.string().min(1).max(64),
      quantity: z.number().int().min(1, "must be 1-999").max(999, "must be 1-999"),
    }),
  )
  .min(1, "must have 1-100 lines")
  .max(100, "must have 1-100 lines");
export const deliveryMethodSchema = z.enum(["DELIVERY", "PICKUP"]);
export const addressSchema = z.string().trim().max(500).optional().nullable();

export const checkoutSchema = z
  .object({
    customer: z.object({
      name: z.string().trim().min(1, "is required").max(100),
      phone: z.string().trim().min(3, "is required").max(40),
      email: z.string().trim().email("must be an e-mail address").max(254).optional().nullable(),
    }),
    items: itemsSchema,
    deliveryMethod: deliveryMethodSchema,
    paymentMethod: z.string().trim().min(1, "is required").max(200),
    address: addressSchema,
    notes: z.string().trim().max(1000).optional().nullable(),
  })
  .superRefine((v, ctx) => {
    if (v.deliveryMethod === "DELIVERY" && !v.address)
      ctx.addIssue({ code: "custom", path: ["address"], message: "is required for DELIVERY" });
  });

export type CheckoutInput = z.infer<typeof checkoutSchema>;

export const quoteSchema = z.object({
  items: itemsSchema,
  deliveryMethod: deliveryMethodSchema,
  address: addressSchema,
});
export type QuoteInput = z.input<typeof quoteSchema>;

/** The payment methods every business takes without an app. */
export const BUILT_IN_METHODS = ["CASH", "CARD"];
