import type { Database } from "../../../db/client";
import type { Env } from "./env.server";

/** What every loader and action receives from the server (getLoadContext). */
export type PlatformContext = { db: Database; env: Env };

declare module "@remix-run/node" {
  interface AppLoadContext extends PlatformContext {}
}
