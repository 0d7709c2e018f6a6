import { z } from "zod";
import type { WorkerDeps } from "../deps";
import { sendErasure } from "../../app/platform/events/special-sends.server";

const payload = z.object({ installationId: z.string() });

/** 48 hours after an uninstall: business.data_erasure (cancelled by a reinstall, which removes this job). */
export async function installationErasure({ db }: WorkerDeps, raw: unknown) {
  await sendErasure(db, payload.parse(raw).installationId);
}
