import postgres from "postgres";
import { drizzle, PostgresJsSession, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import * as schema from "./schema";

/** Statements with more parameters than this stay unnamed (bulk inserts vary in size; caching each is waste). */
export const PREPARE_MAX_PARAMETERS = 64;

/**
 * drizzle hands every query to postgres.js with `prepare: false`. For a query with parameters,
 * postgres.js then sends Parse/Describe first, waits for the parameter types, and only then binds
 * and executes: two round trips per query. As a named prepared statement (cached per connection)
 * it is one round trip after the first use. So every statement with up to PREPARE_MAX_PARAMETERS
 * parameters is prepared (docs/performance.md, decision 012). DATABASE_PREPARE=false (read by
 * app/platform/core/env.server.ts and passed to createDb as `prepare: false`) turns it off behind a
 * pooler in transaction mode (PgBouncer before 1.21), which cannot keep prepared statements.
 *
 * The choice lives on the (shared) prototype, as the patch does: the Remix bundle and the server
 * load this module twice but drizzle once, and every client of a process follows the last
 * createDb's setting (a process opens its database one way).
 */
type PrepareQuery = (
  this: unknown,
  query: { params: unknown[] },
  fields: unknown,
  name: string | undefined,
  ...rest: unknown[]
) => unknown;
const sessionPrototype = () =>
  PostgresJsSession.prototype as unknown as {
    prepareQuery: PrepareQuery;
    preparesStatements?: boolean;
    prepareEnabled?: boolean;
  };
function preferPreparedStatements() {
  const proto = sessionPrototype();
  if (proto.preparesStatements) return; // the Remix bundle and the server both load this module
  const original = proto.prepareQuery;
  proto.prepareQuery = function (query, fields, name, ...rest) {
    const prepare = proto.prepareEnabled !== false && query.params.length <= PREPARE_MAX_PARAMETERS;
    return original.call(this, query, fields, name ?? (prepare ? "" : undefined), ...rest);
  };
  proto.preparesStatements = true;
}
preferPreparedStatements();

/** Whether statements are prepared (createDb's `prepare`); rawQuery (db/sql.ts) follows it too. */
export const preparesStatements = (): boolean => sessionPrototype().prepareEnabled !== false;

export type Database = PostgresJsDatabase<typeof schema> & { $client: postgres.Sql };
export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];
/** Domain functions take either the database or a transaction as their first argument. */
export type Db = Database | Tx;

export type DbHandle = { db: Database; sql: postgres.Sql; url: string; close(): Promise<void> };

/**
 * Settings of a client: its pool size (default 10), whether statements are prepared (default true;
 * env's databasePrepare), and where its LISTENs go (`listenUrl`, env's databaseDirectUrl; default `url`).
 */
export type DbSettings = { max?: number; prepare?: boolean; listenUrl?: string };

/** postgres.js's settings for the platform's clients (the pool's size and `prepare` aside). */
const CLIENT_SETTINGS = {
  onnotice: () => {},
  // fail fast and heal (issue 25): a connection attempt gives up after 5 s (the driver's default is
  // 30 s, which left requests hanging after a database restart), idle connections are closed after
  // 5 minutes and every connection is replaced after 30 (so none outlives a failover for long),
  // and TCP keep-alive finds a dead peer
  connect_timeout: 5,
  idle_timeout: 300,
  max_lifetime: 30 * 60,
  keep_alive: 30,
  // Timestamps come back as Date objects; numeric/bigint stay strings unless cast.
  connection: { application_name: "app-platform" },
};

export function createDb(url: string, options: DbSettings = {}): DbHandle {
  const prepare = options.prepare ?? true;
  sessionPrototype().prepareEnabled = prepare;
  // `prepare`: postgres.js's own default for queries run on the client itself (tagged templates, unsafe).
  // Off means a pooler in transaction mode (decision 053), and there a connection also sends one
  // query at a time (`max_pipeline: 0`): postgres.js pipelines a query behind another on a busy
  // connection, and PgBouncer 1.18 ends the transaction at the first one's ReadyForQuery, hands the
  // server on and drops the second one's answer, so its client waited for ever (the failover test's
  // web processes hung; deploy/topology/listen-pooler.test.ts)
  const sql = postgres(url, {
    ...CLIENT_SETTINGS,
    max: options.max ?? 10,
    prepare,
    ...(prepare ? {} : { max_pipeline: 0 }),
  });
  // Every LISTEN of the process (the dispatcher's webhook_deliveries, the developer relay's
  // app_relay: `db.$client.listen`) holds a session of its own on `listenUrl` (decision 053). A
  // pooler in transaction mode hands the LISTEN's server connection back after the statement, and
  // the notifications that arrive on it later reach no one; so when DATABASE_URL is such a pooler,
  // DATABASE_DIRECT_URL names a session-level path to the primary. postgres.js opens the listening
  // session on the first LISTEN and, after it closes (a failover), opens it again and LISTENs again.
  // Only on a primary (`target_session_attrs`): a node still finishing its promotion, which a
  // balancer may already send to, refuses LISTEN ("cannot execute LISTEN during recovery"), and
  // postgres.js would drop the channel for good; on a standby the session is closed and opened
  // again, after the driver's back-off, until a primary takes it.
  const listener = postgres(options.listenUrl ?? url, { ...CLIENT_SETTINGS, max: 1, target_session_attrs: "primary" });
  sql.listen = listener.listen;
  const db = drizzle(sql, { schema });
  return {
    db,
    sql,
    url,
    close: async () => {
      await Promise.all([sql.end({ timeout: 5 }), listener.end({ timeout: 5 })]);
    },
  };
}

export { schema };
