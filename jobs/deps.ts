/** What every task receives from the worker that runs it: the database and the settings. A module of its own, so that the tasks need not import the worker that lists them. */
import type { Database } from "../db/client";
import type { Env } from "../app/platform/core/env.server";

/** `mailUrl`: where messages go when MAIL_URL is unset (the embedded development mailbox the worker started). */
export type WorkerDeps = { db: Database; env: Env; mailUrl?: string };
