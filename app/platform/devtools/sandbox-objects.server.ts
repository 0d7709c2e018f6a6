/**
 * The real objects storefront-apps trigger works with on a developer's sandbox (decision 035): the
 * sandbox's test installation of the app, a product kept for triggers, and an order placed through
 * the checkout pipeline. Everything is made with the domains' own functions, so it is what a
 * merchant's or a shopper's action makes.
 */
import { and, eq } from "drizzle-orm";
import type { Database } from "../../../db/client";
import { products, type App, type Business, type Installation, type Product } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { getActiveInstallation } from "../installs/installs.server";
import { createProduct, productSchema, updateProduct } from "../catalog/products.server";
import { checkout, type CheckoutHooks } from "../orders/checkout.server";
import { orderInput, type Overrides } from "./overrides.server";

/** The slug of the product triggers sell, review and restock (made on first use, kept afterwards). */
export const TRIGGER_PRODUCT_SLUG = "storefront-apps-trigger";
export const TRIGGER_ACTOR = "storefront-apps trigger";

/** The app's active installation on the developer's sandbox (409 with what to do when there is none). */
export async function sandboxInstallation(db: Database, app: App, business: Business | null): Promise<Installation> {
  if (!business) throw new ApiError(409, "This developer account has no sandbox business");
  const installation = await getActiveInstallation(db, app.id, business.id);
  if (!installation)
    throw new ApiError(
      409,
      `${app.name} is not installed on your sandbox: run \`storefront-apps test-install\` (POST /developer/apps/${app.id}/test-install) first`,
    );
  return installation;
}

/** The sandbox's trigger product, sellable (ACTIVE, available, in stock when tracked): made or put back as needed. */
export async function triggerProduct(db: Database, businessId: string): Promise<Product> {
  const [found] = await db
    .select()
    .from(products)
    .where(and(eq(products.businessId, businessId), eq(products.slug, TRIGGER_PRODUCT_SLUG)));
  if (!found)
    return createProduct(
      db,
      businessId,
      productSchema.parse({
        name: "Sample product (storefront-apps trigger)",
        slug: TRIGGER_PRODUCT_SLUG,
        description: "Sold, reviewed and restocked by storefront-apps trigger on this sandbox.",
        price: 1250,
        category: "Samples",
        stock: null,
      }),
    );
  if (found.status === "ACTIVE" && found.isAvailable && (found.stock === null || found.stock >= 2)) return found;
  return updateProduct(db, businessId, found.id, {
    status: "ACTIVE",
    isAvailable: true,
    stock: found.stock === null ? null : Math.max(found.stock, 20),
  });
}

/** A shopper's cart on the sandbox: two of the trigger product, delivered. */
export async function sampleCart(db: Database, businessId: string) {
  const product = await triggerProduct(db, businessId);
  return {
    product,
    input: {
      customer: { name: "Sample Shopper", phone: "+1 555 0100", email: "shopper@example.test" },
      items: [{ productId: product.id, quantity: 2 }],
      deliveryMethod: "DELIVERY" as const,
      address: "1 Sample Street, Springfield",
      notes: "Placed by storefront-apps trigger",
    },
  };
}

/** An order placed through the checkout pipeline (no app's hook is called unless `hooks` says so). */
export async function placeSampleOrder(
  db: Database,
  business: Business,
  options: { paymentMethod?: string; hooks?: CheckoutHooks; overrides?: Overrides } = {},
) {
  const input = await orderInput(db, business, (await sampleCart(db, business.id)).input, options.overrides);
  return checkout(
    db,
    business,
    { ...input, paymentMethod: options.paymentMethod ?? "CASH" },
    { actor: TRIGGER_ACTOR, hooks: options.hooks },
  );
}
