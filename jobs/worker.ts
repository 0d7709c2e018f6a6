/**
 * The graphile-worker runner with the platform's task list. `npm start` runs it beside the web
 * server; `npm run worker` runs it alone. Several workers may share one database.
 */
import { run, type Runner, type TaskList } from "graphile-worker";
import type { Database } from "../db/client";
import type { Env } from "../app/platform/core/env.server";
import { quietLogger } from "../db/migrate";
import { maintenanceCleanup } from "./tasks/maintenance__cleanup";

export type WorkerDeps = { db: Database; env: Env };

export function taskList(deps: WorkerDeps): TaskList {
  return {
    maintenance__cleanup: (payload, helpers) => maintenanceCleanup(deps, payload, helpers),
  };
}

export async function startWorker(options: { url: string; deps: WorkerDeps; concurrency?: number }): Promise<Runner> {
  return run({
    connectionString: options.url,
    concurrency: options.concurrency ?? options.deps.env.workerConcurrency,
    noHandleSignals: true,
    pollInterval: 1000,
    taskList: taskList(options.deps),
    crontab: "17 * * * * maintenance__cleanup",
    logger: quietLogger,
  });
}
