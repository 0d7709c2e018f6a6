/**
 * Opens the platform's database: DATABASE_URL when set, otherwise the embedded PostgreSQL under
 * <DATA_DIR>/postgres. Migrates it and, when it is empty, loads the demo data. Several processes
 * may start at once: an advisory lock serialises migration and seeding.
 */
import path from "node:path";
import postgres from "postgres";
import type { Env } from "../core/env.server";
import { createDb, type DbHandle } from "../../../db/client";
import { databaseUrl, ensureDatabase, startEmbeddedPostgres, type EmbeddedPostgres } from "../../../db/embedded";
import { migrateDatabase } from "../../../db/migrate";
import { seedDemoData } from "../demo/seed.server";

export type OpenedDatabase = DbHandle & { embedded: EmbeddedPostgres | null; seeded: boolean };

export async function openDatabase(
  env: Env,
  options: { seed?: boolean; log?: (l: string) => void } = {},
): Promise<OpenedDatabase> {
  const log = options.log ?? console.log;
  let url = env.databaseUrl;
  let embedded: EmbeddedPostgres | null = null;
  if (!url) {
    embedded = await startEmbeddedPostgres({ dataDir: path.join(env.dataDir, "postgres"), log });
    await ensureDatabase(embedded.adminUrl, "platform");
    url = databaseUrl(embedded.adminUrl, "platform");
  }
  let seeded = false;
  // a session of its own for the lock and the migrations: never through a pooler in transaction mode
  const direct = env.databaseDirectUrl ?? url;
  const lock = postgres(direct, { max: 1, onnotice: () => {} });
  try {
    await lock`select pg_advisory_lock(727001)`;
    await migrateDatabase(direct);
    const handle = createDb(direct, { max: 2, prepare: env.databasePrepare });
    try {
      if (options.seed !== false) seeded = await seedDemoData(handle.db, env);
    } finally {
      await handle.close();
    }
    await lock`select pg_advisory_unlock(727001)`;
  } finally {
    await lock.end();
  }
  // every LISTEN (the webhook dispatcher's, the developer relay's) on a session of the direct path
  // too: a pooler in transaction mode would lose the notifications (decision 053)
  if (!env.databasePrepare && !env.databaseDirectUrl)
    log(
      "DATABASE_PREPARE=false without DATABASE_DIRECT_URL: if DATABASE_URL is a pooler in transaction mode, set DATABASE_DIRECT_URL to a direct path to the primary, or the LISTENs of the webhook dispatcher and the developer relay miss their notifications",
    );
  return { ...createDb(url, { prepare: env.databasePrepare, listenUrl: direct }), embedded, seeded };
}
