/**
 * `storefront-apps trigger <event>`: emits a sample event of that type on the developer's sandbox
 * business through the real emitEvent, so it reaches the registrations of the app's test
 * installation (and every other registration on the sandbox subscribed to it) like a real one.
 */
import type { Database } from "../../../db/client";
import type { Account } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { getDeveloperApp } from "../apps/app-lookups.server";
import { emitEvent } from "../events/emit.server";
import { SUBSCRIBABLE_EVENTS } from "../apps/catalog";

/** Events a developer may trigger: the ones apps subscribe to (not the internal, erasure or privacy ones). */
export const TRIGGERABLE: string[] = SUBSCRIBABLE_EVENTS;

export function sampleData(event: string): Record<string, unknown> {
  const orderId = newId("ord");
  const productId = newId("prd");
  const at = now().toISOString();
  const order = { orderId, orderNumber: `SAMPLE-${orderId.slice(-6).toUpperCase()}` };
  const product = {
    id: productId,
    name: "Sample product",
    slug: "sample-product",
    price: 19.99,
    stock: 3,
    isActive: true,
    createdAt: at,
    updatedAt: at,
  };
  const samples: Record<string, Record<string, unknown>> = {
    "order.created": {
      ...order,
      id: orderId,
      status: "PENDING",
      customerName: "Sample Customer",
      customerEmail: "sample@example.test",
      deliveryMethod: "DELIVERY",
      items: [{ productId, name: "Sample product", quantity: 2, price: 19.99 }],
      subtotal: 39.98,
      deliveryFee: 5,
      discount: 0,
      totalAmount: 44.98,
      createdAt: at,
    },
    "order.status_changed": { ...order, previousStatus: "PENDING", status: "CONFIRMED" },
    "order.delivered": order,
    "order.cancelled": order,
    "payment.completed": { orderId, invoiceId: newId("inv"), amount: 44.98 },
    "payment.expired": { orderId, invoiceId: newId("inv"), amount: 44.98 },
    "product.created": product,
    "product.updated": product,
    "product.deleted": { id: productId },
    "product.out_of_stock": { productId, stock: 0, threshold: 5 },
    "product.low_stock": { productId, stock: 3, threshold: 5 },
    "product.back_in_stock": { productId, stock: 10, threshold: 5 },
    "review.created": {
      id: newId("rev"),
      productId,
      rating: 5,
      comment: "Sample review",
      customerName: "Sample Customer",
      createdAt: at,
    },
    "review.deleted": { id: newId("rev") },
  };
  return { ...samples[event], sample: true };
}

export async function triggerSample(db: Database, account: Account, appId: string, event: unknown) {
  await getDeveloperApp(db, account.id, appId);
  if (typeof event !== "string" || !TRIGGERABLE.includes(event))
    throw new ApiError(400, `event must be one of ${TRIGGERABLE.join(", ")}`);
  if (!account.businessId) throw new ApiError(409, "This developer account has no sandbox business");
  const businessId = account.businessId;
  const emitted = await db.transaction((tx) => emitEvent(tx, { businessId, type: event, data: sampleData(event) }));
  return { eventId: emitted.id, event, businessId };
}
