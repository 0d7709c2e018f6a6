import { z } from "zod";
import { eq } from "drizzle-orm";
import type { WorkerDeps } from "../worker";
import { orders } from "../../db/schema";
import { settlePayment } from "../../app/platform/catalog/orders.server";

const payload = z.object({ orderId: z.string() });

/** At a payment's expiresAt: a payment still open expires by itself (payment.expired). */
export async function paymentExpire({ db }: WorkerDeps, raw: unknown) {
  const { orderId } = payload.parse(raw);
  await db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (order && order.paymentStatus === "PENDING") await settlePayment(tx, order, "EXPIRED");
  });
}
