import postgres from "postgres";
import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import * as schema from "./schema";

export type Database = PostgresJsDatabase<typeof schema> & { $client: postgres.Sql };
export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];
/** Domain functions take either the database or a transaction as their first argument. */
export type Db = Database | Tx;

export type DbHandle = { db: Database; sql: postgres.Sql; url: string; close(): Promise<void> };

export function createDb(url: string, options: { max?: number } = {}): DbHandle {
  const sql = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    // Timestamps come back as Date objects; numeric/bigint stay strings unless cast.
    connection: { application_name: "app-platform" },
  });
  const db = drizzle(sql, { schema });
  return { db, sql, url, close: () => sql.end({ timeout: 5 }) };
}

export { schema };
