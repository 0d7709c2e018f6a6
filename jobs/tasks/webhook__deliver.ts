import { z } from "zod";
import type { WorkerDeps } from "../worker";
import { attemptDelivery } from "../../app/platform/webhooks/delivery.server";

const payload = z.object({ deliveryId: z.string(), manual: z.boolean().optional() });

/** One attempt of one delivery; failures are scheduled again by the delivery itself, not by graphile-worker. */
export async function webhookDeliver({ db, env }: WorkerDeps, raw: unknown) {
  const { deliveryId, manual } = payload.parse(raw);
  await attemptDelivery(db, env, deliveryId, { manual });
}
