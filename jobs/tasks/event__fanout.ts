import { z } from "zod";
import type { WorkerDeps } from "../deps";
import { FANOUT_BATCH, fanOut } from "../../app/platform/webhooks/delivery.server";

/** {eventId} from emitEvent and the sweeper, {eventIds} from emitEvents (bulk). */
const payload = z.union([
  z.object({ eventId: z.string() }),
  z.object({ eventIds: z.array(z.string()).max(FANOUT_BATCH) }),
]);

/** Deliveries for the job's events, and for other events still waiting (see fanOut). */
export async function eventFanout({ db }: WorkerDeps, raw: unknown) {
  const p = payload.parse(raw);
  await fanOut(db, "eventId" in p ? [p.eventId] : p.eventIds, { steal: FANOUT_BATCH });
}
