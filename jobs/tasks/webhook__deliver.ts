import { z } from "zod";
import type { WorkerDeps } from "../worker";
import { attemptDelivery } from "../../app/platform/webhooks/delivery.server";

/** after: how many attempts the delivery had when this job was made (its job is attempt after+1). */
const payload = z.object({ deliveryId: z.string(), manual: z.boolean().optional(), after: z.number().int().min(0).optional() });

/** One attempt of one delivery; failures are scheduled again by the delivery itself, not by graphile-worker. */
export async function webhookDeliver({ db, env }: WorkerDeps, raw: unknown) {
  const { deliveryId, manual, after } = payload.parse(raw);
  await attemptDelivery(db, env, deliveryId, { manual, after: manual ? undefined : after });
}
