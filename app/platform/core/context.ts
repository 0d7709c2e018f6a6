import type { Database } from "../../../db/client";
import type { Env } from "./env.server";

/**
 * What every loader and action receives from the server (getLoadContext): the primary (`db`), and,
 * when READ_DATABASE_URL is set, a replica (`readDb`) that may lag behind it.
 */
export type PlatformContext = { db: Database; env: Env; readDb?: Database };

/**
 * The database for a read where staleness is harmless (issue 34, README "Reads from a replica"): the
 * replica when there is one. Used only by the storefront's shared catalog pages (no cart, GET) and the
 * App API's catalog lists (products, reviews, pages). Never for a read that follows the reader's own
 * write (checkout, an admin page after its save, idempotency keys, rate limits, sessions): those read
 * `db`, the primary.
 */
export const replicaOf = (context: Pick<PlatformContext, "db" | "readDb">): Database => context.readDb ?? context.db;

declare module "@remix-run/node" {
  // Remix's load context is exactly the platform's (declaration merging needs an interface)
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends PlatformContext {}
}
