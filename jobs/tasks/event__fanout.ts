import { z } from "zod";
import type { WorkerDeps } from "../worker";
import { attemptDelivery, fanOut } from "../../app/platform/webhooks/delivery.server";

const payload = z.object({ eventId: z.string() });

/** One delivery per subscribed registration of the event's business; small fan-outs make their first attempts here. */
export async function eventFanout({ db, env }: WorkerDeps, raw: unknown) {
  const inline = await fanOut(db, payload.parse(raw).eventId);
  await Promise.all(inline.map((id) => attemptDelivery(db, env, id)));
}
