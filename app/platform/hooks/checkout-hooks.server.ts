/**
 * The checkout pipeline's hook points, bound to a database: the installations whose scopes cover a
 * hook point are called through their hook extensions.
 */
import type { Database } from "../../../db/client";
import type { Env } from "../core/env.server";
import { noHooks, type CheckoutHooks } from "../../../storefront/checkout.server";

export function checkoutHooks(_db: Database, _env: Env): CheckoutHooks {
  return noHooks;
}
