/**
 * Registers db/postgres-hooks.mjs, the patch of postgres.js's reconnect (docs/reliability.md, "The
 * reconnect hang"). Must run before the first import of `postgres`: server.ts imports it first,
 * vitest (setupFiles and the global setup) and the benchmarks too.
 */
import { register } from "node:module";

const flag = Symbol.for("storefront-apps.postgres-fix");
const state = globalThis as unknown as Record<symbol, boolean>;
if (!state[flag] && process.env.POSTGRES_FIX !== "off") {
  state[flag] = true;
  register("./postgres-hooks.mjs", import.meta.url);
}
