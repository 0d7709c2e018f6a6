import { z } from "zod";
import type { WorkerDeps } from "../worker";
import { fanOut } from "../../app/platform/webhooks/delivery.server";

const payload = z.object({ eventId: z.string() });

/** One delivery per subscribed registration of the event's business. */
export async function eventFanout({ db }: WorkerDeps, raw: unknown) {
  await fanOut(db, payload.parse(raw).eventId);
}
