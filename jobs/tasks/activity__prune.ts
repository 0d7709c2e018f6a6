import type { JobHelpers } from "graphile-worker";
import type { WorkerDeps } from "../deps";
import { pruneActivity } from "../../app/platform/activity/activity.server";

/** Daily: removes the activity log's entries past the retention period (decision 073), the one delete its trigger allows. */
export async function activityPrune({ db }: WorkerDeps, _payload: unknown, helpers: JobHelpers) {
  const removed = await pruneActivity(db);
  if (removed) helpers.logger.info(`removed ${removed} activity entries past retention`);
}
