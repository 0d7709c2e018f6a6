/**
 * The lookups the apps and extensions domains share: a developer's own app (404 for any other),
 * and whether it may be edited now. Their own module, so that apps.server.ts (which syncs the
 * manifest) and extensions/manifest.server.ts (which edits an app's manifest) both reach them
 * without importing each other.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client";
import { appMembers, apps, type App } from "../../../db/schema";
import { ApiError } from "../core/http.server";

/**
 * An app the developer is a member of (contract 17: its creator, or one invited to it); any other
 * app is 404, as if it did not exist. What the member's role allows is the route's to check
 * (`appRole` in its declaration, `requireAppRole`).
 */
export async function getDeveloperApp(db: Db, developerId: string, appId: string): Promise<App> {
  return found(await ownApp(db, developerId, appId));
}

/** The developer's own app locked for update in the transaction (404 for any other), refused while in review. */
export async function lockEditableApp(tx: Tx, developerId: string, appId: string): Promise<App> {
  const app = found(await ownApp(tx, developerId, appId).for("update"));
  assertEditable(app);
  return app;
}

function ownApp(db: Db, developerId: string, appId: string) {
  return db
    .select()
    .from(apps)
    .where(
      and(
        eq(apps.id, appId),
        sql`exists (select 1 from ${appMembers} m where m.app_id = ${apps.id} and m.account_id = ${developerId})`,
      ),
    );
}

function found([app]: App[]): App {
  if (!app) throw new ApiError(404, "App not found");
  return app;
}

export function assertEditable(app: App) {
  if (app.status === "PENDING_REVIEW" || app.updateInReview)
    throw new ApiError(409, "The app is in review and cannot be edited until the review ends");
}
