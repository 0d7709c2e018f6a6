/**
 * The one registry of active extensions of active installations, read by the hook invoker, the
 * site builder, the storefront's embed injector and the admin sidebar.
 */
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { apps, extensions, hookBreakers, installations, type App, type Extension, type ExtensionKind, type HookBreaker, type Installation } from "../../../db/schema";

export type ActiveExtension = { extension: Extension; installation: Installation; app: App };

export async function activeExtensions(db: Db, businessId: string, kind: ExtensionKind, key?: string): Promise<ActiveExtension[]> {
  const conditions = [eq(installations.businessId, businessId), eq(installations.status, "ACTIVE"), eq(extensions.kind, kind), eq(extensions.isActive, true)];
  if (key) conditions.push(eq(extensions.key, key));
  return db
    .select({ extension: extensions, installation: installations, app: apps })
    .from(installations)
    .innerJoin(apps, eq(apps.id, installations.appId))
    .innerJoin(extensions, eq(extensions.appId, apps.id))
    .where(and(...conditions))
    .orderBy(asc(installations.installedAt), asc(installations.id), asc(extensions.key));
}

/**
 * Every active hook extension of the business with its breaker row (null when it never failed):
 * what one checkout needs of the registry, in one statement.
 */
export async function hookRegistry(db: Db, businessId: string): Promise<{ extensions: ActiveExtension[]; breakers: HookBreaker[] }> {
  const rows = await db
    .select({ extension: extensions, installation: installations, app: apps, breaker: hookBreakers })
    .from(installations)
    .innerJoin(apps, eq(apps.id, installations.appId))
    .innerJoin(extensions, eq(extensions.appId, apps.id))
    .leftJoin(hookBreakers, and(eq(hookBreakers.installationId, installations.id), eq(hookBreakers.hookPoint, extensions.key)))
    .where(and(eq(installations.businessId, businessId), eq(installations.status, "ACTIVE"), eq(extensions.kind, "hook"), eq(extensions.isActive, true)))
    .orderBy(asc(installations.installedAt), asc(installations.id), asc(extensions.key));
  return { extensions: rows.map(({ extension, installation, app }) => ({ extension, installation, app })), breakers: rows.flatMap((r) => (r.breaker ? [r.breaker] : [])) };
}

export type HookTarget = ActiveExtension & { timeout: number; priority: number; path: string };

/** Hook targets of a hook point: the installation must hold the hook point's scope, the app a webhook URL. */
export async function hookTargets(db: Db, businessId: string, hookPoint: string, scope: string, preloaded?: ActiveExtension[]): Promise<HookTarget[]> {
  const rows = preloaded ? preloaded.filter((r) => r.extension.key === hookPoint) : await activeExtensions(db, businessId, "hook", hookPoint);
  return rows
    .filter((r) => r.app.webhookUrl && r.installation.scopes.includes(scope))
    .map((r) => ({ ...r, timeout: Math.min(Number(r.extension.definition.timeout ?? 5000), 10_000), priority: Number(r.extension.definition.priority ?? 100), path: String(r.extension.definition.url) }))
    .sort((a, b) => a.priority - b.priority || a.installation.installedAt.getTime() - b.installation.installedAt.getTime());
}

