/**
 * Prepares one CSV export of the admin's orders (issue 45, decision 081): the orders read by keyset
 * in batches, each batch's CSV written as a chunk with the export's progress. Another attempt starts
 * the file again; after the last one fails the export is marked FAILED for the page to say so.
 */
import { z } from "zod";
import type { JobHelpers } from "graphile-worker";
import type { WorkerDeps } from "../deps";
import { failOrderExport, runOrderExport } from "../../app/platform/orders/exports.server";

const Payload = z.object({ id: z.string().min(1) });

export async function ordersExport(deps: WorkerDeps, payload: unknown, helpers: JobHelpers) {
  const { id } = Payload.parse(payload);
  try {
    await runOrderExport(deps.db, id);
  } catch (e) {
    if (helpers.job.attempts >= helpers.job.max_attempts) await failOrderExport(deps.db, id);
    throw e;
  }
}
