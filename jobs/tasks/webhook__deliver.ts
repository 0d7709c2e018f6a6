import { z } from "zod";
import type { WorkerDeps } from "../deps";
import { attemptDeliveries } from "../../app/platform/webhooks/delivery.server";
import { DELIVERY_BATCH } from "../../app/platform/webhooks/fanout.server";

/** after: how many attempts the delivery had when this job was made (its job is attempt after+1). */
const one = z.object({
  deliveryId: z.string(),
  manual: z.boolean().optional(),
  after: z.number().int().min(0).optional(),
});
/** A first-attempt job of a fan-out is a list of deliveries; a retry, a redelivery or a sweep is one. */
const payload = z.union([
  one,
  z
    .array(one.omit({ manual: true }))
    .min(1)
    .max(DELIVERY_BATCH),
]);

/** Attempts of deliveries; failures are scheduled again by the delivery itself, not by graphile-worker. */
export async function webhookDeliver({ db, env }: WorkerDeps, raw: unknown) {
  const p = payload.parse(raw);
  if (Array.isArray(p)) await attemptDeliveries(db, env, p);
  else
    await attemptDeliveries(db, env, [{ deliveryId: p.deliveryId, after: p.manual ? undefined : p.after }], {
      manual: p.manual,
    });
}
