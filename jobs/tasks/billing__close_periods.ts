import { z } from "zod";
import type { WorkerDeps } from "../deps";
import { closeDuePeriods } from "../../app/platform/billing/closing.server";

const payload = z.object({}).passthrough();

/**
 * Every minute (the worker's crontab) and on demand: expires stale PENDING subscriptions and closes
 * every due period into invoice lines and ledger transactions (app/platform/billing/closing.server.ts).
 * Idempotent: a period is closed once, under its row's lock, with unique keys on every line.
 */
export async function billingClosePeriods({ db }: WorkerDeps, raw: unknown) {
  payload.parse(raw ?? {});
  await closeDuePeriods(db);
}
