/**
 * The one registry of active extensions of active installations, read by the hook invoker, the
 * site builder, the storefront's embed injector and the admin sidebar.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { perDatabase } from "../../../db/sql";
import {
  apps,
  extensions,
  hookBreakers,
  installations,
  type App,
  type Extension,
  type ExtensionKind,
  type HookBreaker,
  type Installation,
} from "../../../db/schema";

export type ActiveExtension = { extension: Extension; installation: Installation; app: App };

/** Active extensions of a kind, of the business's ACTIVE installations, in installation order. */
const activeOf = (businessId: string | ReturnType<typeof sql.placeholder>, kind: ExtensionKind) =>
  and(
    eq(installations.businessId, businessId),
    eq(installations.status, "ACTIVE"),
    eq(extensions.kind, kind),
    eq(extensions.isActive, true),
  );
const installationOrder = [asc(installations.installedAt), asc(installations.id), asc(extensions.key)];

export async function activeExtensions(db: Db, businessId: string, kind: ExtensionKind): Promise<ActiveExtension[]> {
  return db
    .select({ extension: extensions, installation: installations, app: apps })
    .from(installations)
    .innerJoin(apps, eq(apps.id, installations.appId))
    .innerJoin(extensions, eq(extensions.appId, apps.id))
    .where(activeOf(businessId, kind))
    .orderBy(...installationOrder);
}

export type HookRegistry = { extensions: ActiveExtension[]; breakers: HookBreaker[] };

/**
 * Read by every checkout (issue 16): the statement is built once per database handle (drizzle's
 * prepared query with a placeholder), not on every call.
 */
const hookRegistryQuery = perDatabase((db: Db) =>
  db
    .select({ extension: extensions, installation: installations, app: apps, breaker: hookBreakers })
    .from(installations)
    .innerJoin(apps, eq(apps.id, installations.appId))
    .innerJoin(extensions, eq(extensions.appId, apps.id))
    .leftJoin(
      hookBreakers,
      and(eq(hookBreakers.installationId, installations.id), eq(hookBreakers.hookPoint, extensions.key)),
    )
    .where(activeOf(sql.placeholder("businessId"), "hook"))
    .orderBy(...installationOrder)
    .prepare("hook_registry"),
);

/**
 * Every active hook extension of the business with its breaker row (none when it never failed):
 * what one checkout needs of the registry, in one statement.
 */
export async function hookRegistry(db: Db, businessId: string): Promise<HookRegistry> {
  const rows = await hookRegistryQuery(db).execute({ businessId });
  return {
    extensions: rows.map(({ extension, installation, app }) => ({ extension, installation, app })),
    breakers: rows.flatMap((r) => (r.breaker ? [r.breaker] : [])),
  };
}

export type HookTarget = ActiveExtension & { timeout: number; priority: number; path: string };

/** Hook targets of a hook point: the installation must hold the hook point's scope, the app a webhook URL. */
export function hookTargets(registry: ActiveExtension[], hookPoint: string, scope: string): HookTarget[] {
  return registry
    .filter((r) => r.extension.key === hookPoint && r.app.webhookUrl && r.installation.scopes.includes(scope))
    .map((r) => ({
      ...r,
      timeout: Math.min(Number(r.extension.definition.timeout ?? 5000), 10_000),
      priority: Number(r.extension.definition.priority ?? 100),
      path: String(r.extension.definition.url),
    }))
    .sort(
      (a, b) => a.priority - b.priority || a.installation.installedAt.getTime() - b.installation.installedAt.getTime(),
    );
}
