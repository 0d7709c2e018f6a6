import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { runMigrations } from "graphile-worker";
import { handlePoolErrors, pgPool } from "./primary";

export const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

/** Applies the platform's migrations and graphile-worker's own schema. Safe to run repeatedly. */
export async function migrateDatabase(url: string) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrate(drizzle(sql), { migrationsFolder });
  } finally {
    await sql.end();
  }
  // graphile-worker's schema through `pg`, on the primary when the URL lists several hosts
  const pool = pgPool(url);
  handlePoolErrors(pool, () => {});
  try {
    await runMigrations({ pgPool: pool, logger: quietLogger });
  } finally {
    await pool.end();
  }
}

import { Logger } from "graphile-worker";
export const quietLogger = new Logger(() => (level: string, message: string) => {
  if (level === "error" || level === "warning") console.error(`[worker] ${message}`);
});
