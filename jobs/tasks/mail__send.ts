/**
 * Sends one queued message (contract 16): the row is the source of truth, one job per attempt, the
 * next one added with its due time by the attempt before (app/platform/mail/outbox.server.ts).
 */
import { z } from "zod";
import type { WorkerDeps } from "../deps";
import { sendQueuedMail } from "../../app/platform/mail/outbox.server";

const Payload = z.object({ id: z.string().min(1) });

export async function mailSend(deps: WorkerDeps, payload: unknown) {
  const { id } = Payload.parse(payload);
  await sendQueuedMail(deps, id);
}
