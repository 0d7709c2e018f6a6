import type { Database } from "../../../db/client";
import type { Env } from "./env.server";

/** What every loader and action receives from the server (getLoadContext). */
export type PlatformContext = { db: Database; env: Env };

declare module "@remix-run/node" {
  // Remix's load context is exactly the platform's (declaration merging needs an interface)
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends PlatformContext {}
}
