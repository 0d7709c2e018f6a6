/** The developer's manifest edit: the app's draft manifest stored and its extensions synced (contract 9). */
import { eq } from "drizzle-orm";
import { byOf, recordActivity, type ActivityBy } from "../activity/activity.server";
import type { Database } from "../../../db/client";
import { apps } from "../../../db/schema";
import { now } from "../core/clock.server";
import { parseManifest, syncManifest } from "../extensions/manifest.server";
import { assertEditable, getDeveloperApp, lockEditableApp } from "./app-lookups.server";

/** PUT /developer/apps/<id>/manifest: validate, store and sync (or, with dryRun, only plan). */
export async function putManifest(
  db: Database,
  developerId: string,
  appId: string,
  raw: unknown,
  options: { dryRun: boolean; by?: ActivityBy },
) {
  const app = await getDeveloperApp(db, developerId, appId);
  assertEditable(app);
  const manifest = parseManifest(raw);
  if (options.dryRun) return { manifest, sync: await syncManifest(db, appId, manifest, { dryRun: true }) };
  return db.transaction(async (tx) => {
    await lockEditableApp(tx, developerId, appId);
    await tx
      .update(apps)
      .set({ manifest: manifest as Record<string, unknown>, updatedAt: now() })
      .where(eq(apps.id, appId));
    const sync = await syncManifest(tx, appId, manifest);
    await recordActivity(tx, {
      appId,
      ...byOf(options.by),
      action: "manifest.synced",
      target: { type: "app", id: appId },
      details: { created: sync.created, updated: sync.updated, deactivated: sync.deactivated },
    });
    return { manifest, sync };
  });
}
