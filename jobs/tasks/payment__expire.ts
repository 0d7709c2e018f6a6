import { z } from "zod";
import type { WorkerDeps } from "../deps";
import { expirePayment } from "../../app/platform/orders/payments.server";

const payload = z.object({ orderId: z.string() });

/** At a payment's expiresAt: the orders domain expires a payment still open (payment.expired). */
export async function paymentExpire({ db }: WorkerDeps, raw: unknown) {
  await expirePayment(db, payload.parse(raw).orderId);
}
