/**
 * Payments of app payment methods (contract 6): the app's report of the outcome, and the expiry of
 * a payment still open at its expiresAt (the payment__expire job), each with its event.
 */
import { eq } from "drizzle-orm";
import type { Database, Tx } from "../../../db/client";
import { orders, type Order } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { now } from "../core/clock.server";
import { emitEvent } from "../events/emit.server";
import { changeLockedOrder } from "./locked-order.server";
import { paymentEvent } from "./events.server";

/** The payment app reports the outcome of the payment it created. */
export async function reportPayment(
  db: Database,
  businessId: string,
  installationId: string,
  orderId: string,
  input: { status: "COMPLETED" | "EXPIRED"; invoiceId: string },
) {
  return changeLockedOrder(db, businessId, orderId, async (tx, order) => {
    if (order.paymentInstallationId !== installationId)
      throw new ApiError(403, "Only the app that created the order's payment can report its outcome");
    if (order.paymentInvoiceId !== input.invoiceId)
      throw new ApiError(400, "invoiceId: does not match the order's payment");
    if (order.paymentStatus !== "PENDING") throw new ApiError(409, `The payment is already ${order.paymentStatus}`);
    await settlePayment(tx, order, input.status);
  });
}

/**
 * A payment opened on an order by an app (PENDING, with the app's invoice id), as
 * checkout.create_payment's answer opens one: storefront-apps trigger's stand-in for that hook, so
 * that the app's report (reportPayment) moves a real payment of a real order (decision 035).
 */
export async function openPayment(
  db: Database,
  businessId: string,
  orderId: string,
  payment: { installationId: string; invoiceId: string },
) {
  return changeLockedOrder(db, businessId, orderId, async (tx, order) => {
    if (order.paymentStatus !== "NONE")
      throw new ApiError(409, `The order's payment is already ${order.paymentStatus}`);
    await tx
      .update(orders)
      .set({
        paymentStatus: "PENDING",
        paymentInstallationId: payment.installationId,
        paymentInvoiceId: payment.invoiceId,
        updatedAt: now(),
      })
      .where(eq(orders.id, order.id));
  });
}

/** Marks a pending payment COMPLETED or EXPIRED and emits payment.completed / payment.expired. */
export async function settlePayment(tx: Tx, order: Order, status: "COMPLETED" | "EXPIRED") {
  await tx.update(orders).set({ paymentStatus: status, updatedAt: now() }).where(eq(orders.id, order.id));
  await emitEvent(tx, paymentEvent(order, status));
}

/** At a payment's expiresAt: a payment still open expires by itself (payment.expired); any other is left alone. */
export async function expirePayment(db: Database, orderId: string) {
  await db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (order && order.paymentStatus === "PENDING") await settlePayment(tx, order, "EXPIRED");
  });
}
