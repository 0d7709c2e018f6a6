/** The payment of an order placed with an app's method (checkout.create_payment), once the order is written. */
import { eq } from "drizzle-orm";
import type { Database } from "../../../db/client";
import { orders, orderStatusChanges, type Business } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { emitEvent } from "../events/emit.server";
import { queueOrderStatusMail } from "../mail/queue.server";
import { statusMoveEvents } from "./events.server";
import type { CheckoutHooks, OfferedMethod, PaymentResult } from "./checkout-pricing.server";

/** checkout.create_payment for an app's method; a failure cancels the order. */
export async function startPayment(
  db: Database,
  business: Business,
  orderId: string,
  method: OfferedMethod,
  hooks: CheckoutHooks,
  actor: string,
): Promise<PaymentResult> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  const result = await hooks.createPayment(business, order, method);
  if (!result) {
    await db.transaction(async (tx) => {
      const t = now();
      await tx
        .update(orders)
        .set({ status: "CANCELLED", paymentStatus: "FAILED", paymentMethodName: method.name, updatedAt: t })
        .where(eq(orders.id, orderId));
      await tx
        .insert(orderStatusChanges)
        .values({ id: newId("osc"), orderId, fromStatus: "PENDING", toStatus: "CANCELLED", actor, createdAt: t });
      for (const event of statusMoveEvents(order, "PENDING", "CANCELLED")) await emitEvent(tx, event);
      await queueOrderStatusMail(tx, order, "CANCELLED");
    });
    throw new ApiError(
      502,
      `The payment could not be started with ${method.name}; the order was cancelled. Choose another payment method.`,
    );
  }
  const expiresAt = result.expiresAt ? new Date(result.expiresAt) : null;
  await db
    .update(orders)
    .set({
      // the method's name as the app gave it, for the merchant's pages (orders/labels.ts)
      paymentMethodName: method.name,
      paymentInvoiceId: result.invoiceId ?? null,
      paymentUrl: result.paymentUrl ?? null,
      paymentQrCode: result.qrCode ?? null,
      paymentExpiresAt: expiresAt,
      updatedAt: now(),
    })
    .where(eq(orders.id, orderId));
  return result;
}
