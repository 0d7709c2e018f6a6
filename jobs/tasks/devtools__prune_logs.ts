import type { JobHelpers } from "graphile-worker";
import type { WorkerDeps } from "../deps";
import { pruneRequestLog } from "../../app/platform/devtools/logs.server";

/** Hourly: removes the App API requests of the developers' live logs older than a day (decision 078). */
export async function devtoolsPruneLogs({ db }: WorkerDeps, _payload: unknown, helpers: JobHelpers) {
  const removed = await pruneRequestLog(db);
  if (removed) helpers.logger.debug(`removed ${removed} logged App API requests older than a day`);
}
