/**
 * The lookups the apps and extensions domains share: a developer's own app (404 for any other),
 * and whether it may be edited now. Their own module, so that apps.server.ts (which syncs the
 * manifest) and extensions/manifest.server.ts (which edits an app's manifest) both reach them
 * without importing each other.
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { apps, type App } from "../../../db/schema";
import { ApiError } from "../core/http.server";

export async function getDeveloperApp(db: Db, developerId: string, appId: string): Promise<App> {
  const [app] = await db
    .select()
    .from(apps)
    .where(and(eq(apps.id, appId), eq(apps.developerId, developerId)));
  if (!app) throw new ApiError(404, "App not found");
  return app;
}

export function assertEditable(app: App) {
  if (app.status === "PENDING_REVIEW" || app.updateInReview)
    throw new ApiError(409, "The app is in review and cannot be edited until the review ends");
}
