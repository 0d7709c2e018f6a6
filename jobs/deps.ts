/** What every task receives from the worker that runs it: the database and the settings. A module of its own, so that the tasks need not import the worker that lists them. */
import type { Database } from "../db/client";
import type { Env } from "../app/platform/core/env.server";

export type WorkerDeps = { db: Database; env: Env };
