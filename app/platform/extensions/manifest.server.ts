/**
 * The app manifest (contract section 9): validation and extension syncing. Extensions are rows
 * keyed by (app, kind, key): a new one is created active, an existing one is updated in place,
 * a removed one is deactivated (never deleted, so merchants' placed blocks and settings are kept
 * and come back with it).
 */
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { extensions, type ExtensionKind } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { validateManifest, type Manifest } from "../shapes/manifest";

export type SyncPlan = { created: string[]; updated: string[]; deactivated: string[] };

type Wanted = { kind: ExtensionKind; key: string; definition: Record<string, unknown> };

function wantedExtensions(manifest: Manifest | null): Wanted[] {
  if (!manifest) return [];
  return [
    ...(manifest.blocks ?? []).map((d) => ({
      kind: "block" as const,
      key: d.blockType,
      definition: d as unknown as Record<string, unknown>,
    })),
    ...(manifest.embeds ?? []).map((d) => ({
      kind: "embed" as const,
      key: d.embedType,
      definition: d as unknown as Record<string, unknown>,
    })),
    ...(manifest.hooks ?? []).map((d) => ({
      kind: "hook" as const,
      key: d.hookPoint,
      definition: { timeout: 5000, priority: 100, ...d } as Record<string, unknown>,
    })),
    ...(manifest.adminPages ?? []).map((d) => ({
      kind: "adminPage" as const,
      key: d.pageId,
      definition: d as unknown as Record<string, unknown>,
    })),
  ];
}

const label = (w: { kind: string; key: string }) => `${w.kind}:${w.key}`;

/** JSON with sorted keys: jsonb does not keep key order, so compare this way. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

/** What syncing this manifest would do, and (unless dryRun) does it. */
export async function syncManifest(
  db: Db,
  appId: string,
  manifest: Manifest | null,
  options: { dryRun?: boolean } = {},
): Promise<SyncPlan> {
  const existing = await db.select().from(extensions).where(eq(extensions.appId, appId));
  const plan: SyncPlan = { created: [], updated: [], deactivated: [] };
  const wanted = wantedExtensions(manifest);
  const t = now();
  for (const w of wanted) {
    const found = existing.find((e) => e.kind === w.kind && e.key === w.key);
    if (!found) {
      plan.created.push(label(w));
      if (!options.dryRun)
        await db.insert(extensions).values({
          id: newId("ext"),
          appId,
          kind: w.kind,
          key: w.key,
          definition: w.definition,
          isActive: true,
          createdAt: t,
          updatedAt: t,
        });
    } else if (!found.isActive || canonical(found.definition) !== canonical(w.definition)) {
      plan.updated.push(label(w));
      if (!options.dryRun)
        await db
          .update(extensions)
          .set({ definition: w.definition, isActive: true, updatedAt: t })
          .where(eq(extensions.id, found.id));
    }
  }
  for (const e of existing) {
    if (e.isActive && !wanted.some((w) => w.kind === e.kind && w.key === e.key)) {
      plan.deactivated.push(label(e));
      if (!options.dryRun)
        await db.update(extensions).set({ isActive: false, updatedAt: t }).where(eq(extensions.id, e.id));
    }
  }
  return plan;
}

export function parseManifest(manifest: unknown): Manifest {
  if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest))
    throw new ApiError(400, "manifest: must be a JSON object");
  const problems = validateManifest(manifest);
  if (problems.length) throw new ApiError(400, problems.join("; "));
  return manifest as Manifest;
}
