/**
 * The app manifest (contract section 9). Stored with the app; validation and extension syncing
 * grow here.
 */
import type { Database } from "../../../db/client";
import { apps } from "../../../db/schema";
import { eq } from "drizzle-orm";
import { ApiError } from "../core/http.server";
import { now } from "../core/clock.server";
import { assertEditable, getDeveloperApp } from "../apps/apps.server";

export type SyncPlan = { created: string[]; updated: string[]; deactivated: string[] };

export async function putManifest(db: Database, developerId: string, appId: string, manifest: unknown, options: { dryRun: boolean }) {
  const app = await getDeveloperApp(db, developerId, appId);
  assertEditable(app);
  if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest)) throw new ApiError(400, "manifest: must be a JSON object");
  const sync: SyncPlan = { created: [], updated: [], deactivated: [] };
  if (!options.dryRun) await db.update(apps).set({ manifest: manifest as Record<string, unknown>, updatedAt: now() }).where(eq(apps.id, appId));
  return { manifest, sync };
}
