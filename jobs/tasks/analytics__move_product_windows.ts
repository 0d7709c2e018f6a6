import type { JobHelpers } from "graphile-worker";
import type { WorkerDeps } from "../deps";
import { moveProductWindow, moveProductWindows } from "../../app/platform/catalog/top-products.server";

/**
 * The top products' windows (decision 090). Hourly: moves every window that starts before today's
 * start (the UTC day 29 days back) to it. With `{businessId}` (queued by a dashboard that found no
 * window, or one too far off): builds or moves that business's window.
 */
export async function analyticsMoveProductWindows({ db }: WorkerDeps, payload: unknown, helpers: JobHelpers) {
  const businessId = (payload as { businessId?: unknown } | null)?.businessId;
  if (typeof businessId === "string") return moveProductWindow(db, businessId);
  const moved = await moveProductWindows(db);
  if (moved) helpers.logger.debug(`moved ${moved} top-product windows`);
}
