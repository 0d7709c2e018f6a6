/**
 * Review (contract section 3): the queue, approval and rejection.
 */
import { notifyReviewOutcome } from "../mail/notices.server";
import { byOf, recordActivity, type ActivityBy } from "../activity/activity.server";
import { and, asc, eq, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database, Db, Tx } from "../../../db/client";
import { apps, appVersions, installations, type App } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { textArray } from "../../../db/sql";
import { syncManifest } from "../extensions/manifest.server";
import type { Manifest } from "../shapes/manifest";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { pageWithTotal } from "../core/paging.server";
import { REVIEW_CRITERIA_KEYS } from "../shapes/app-catalog";

export const rejectSchema = z.object({
  notes: z.string().trim().min(1, "is required: tell the developer what to change").max(5000),
});

/**
 * An approval's body: the review criteria the reviewer checked, by key. All five must be named
 * (`approveApp` refuses otherwise); an empty body names none.
 */
export const approvalSchema = z
  .object({
    criteria: z
      .array(z.enum(REVIEW_CRITERIA_KEYS))
      .max(REVIEW_CRITERIA_KEYS.length * 2)
      .default([])
      .describe(`The review criteria checked; all of them are required: ${REVIEW_CRITERIA_KEYS.join(", ")}`),
  })
  .meta({ id: "AppApproval" });

/** 400 naming each criterion not checked: the server's half of the reviewer's checklist. */
export function requireEveryCriterion(checked: readonly string[]) {
  const missing = REVIEW_CRITERIA_KEYS.filter((k) => !checked.includes(k));
  if (missing.length)
    throw new ApiError(400, `Approve only with every review criterion checked; not checked: ${missing.join(", ")}`);
}

const inReview = or(eq(apps.status, "PENDING_REVIEW"), eq(apps.updateInReview, true));

export async function listReviewQueue(db: Db, page: { limit: number; offset: number }) {
  const oldestSubmittedFirst = db.select().from(apps);
  return pageWithTotal(
    db,
    oldestSubmittedFirst,
    { from: apps, where: inReview, order: [asc(apps.submittedAt), asc(apps.id)] },
    page,
  );
}

export async function getAppForReview(db: Db, appId: string): Promise<App> {
  const [app] = await db.select().from(apps).where(eq(apps.id, appId));
  if (!app) throw new ApiError(404, "App not found");
  return app;
}

async function lockInReview(tx: Tx, appId: string): Promise<App> {
  const [app] = await tx.select().from(apps).where(eq(apps.id, appId)).for("update");
  if (!app) throw new ApiError(404, "App not found");
  if (app.status !== "PENDING_REVIEW" && !app.updateInReview) throw new ApiError(409, "The app is not in review");
  return app;
}

/**
 * Approves, when the reviewer checked every criterion (400 naming the others): APPROVED, approvedScopes = scopes, publishedAt the first time, a version record; test
 * installs become production installs; when scopes were added, every active installation needs
 * re-consent.
 */
export async function approveApp(
  db: Database,
  reviewerId: string,
  appId: string,
  criteria: readonly string[],
  by?: ActivityBy,
): Promise<App> {
  requireEveryCriterion(criteria);
  return db.transaction(async (tx) => {
    const app = await lockInReview(tx, appId);
    const t = now();
    const gained = app.scopes.filter((s) => !app.approvedScopes.includes(s));
    const [approved] = await tx
      .update(apps)
      .set({
        status: "APPROVED",
        updateInReview: false,
        approvedScopes: app.scopes,
        // pricing takes effect with the approval; existing subscribers keep their plan snapshot
        approvedPricing: app.pricing,
        publishedAt: app.publishedAt ?? t,
        reviewNotes: null,
        releaseNotes: null,
        updatedAt: t,
      })
      .where(eq(apps.id, appId))
      .returning();
    const sync = await syncManifest(tx, appId, (app.manifest as Manifest | null) ?? null);
    const versionId = newId("ver");
    await tx.insert(appVersions).values({
      id: versionId,
      appId,
      version: app.version,
      scopes: app.scopes,
      manifest: app.manifest,
      reviewerId,
      approvedAt: t,
      releaseNotes: app.releaseNotes,
    });
    await tx
      .update(installations)
      .set({ isTestInstall: false })
      .where(
        and(eq(installations.appId, appId), eq(installations.isTestInstall, true), eq(installations.status, "ACTIVE")),
      );
    if (app.approvedScopes.length > 0 && gained.length > 0)
      await tx
        .update(installations)
        .set({ needsReConsent: true })
        .where(
          and(
            eq(installations.appId, appId),
            eq(installations.status, "ACTIVE"),
            sql`not (${installations.scopes} @> ${textArray(app.scopes)})`,
          ),
        );
    // the developer hears of it (contract 16), in the approval's transaction
    await notifyReviewOutcome(tx, { appId, approved: true, notes: "", cause: versionId });
    await recordActivity(tx, {
      appId,
      ...byOf(by),
      action: "app.approved",
      target: { type: "app", id: appId },
      details: { version: app.version, scopesAdded: gained, extensions: sync },
    });
    return approved;
  });
}

/** Rejects with notes: back to DRAFT, or (an update of an approved app) out of review. */
export async function rejectApp(db: Database, appId: string, notes: string, by?: ActivityBy): Promise<App> {
  return db.transaction(async (tx) => {
    const app = await lockInReview(tx, appId);
    const change = app.status === "PENDING_REVIEW" ? { status: "DRAFT" as const } : { updateInReview: false };
    const [rejected] = await tx
      .update(apps)
      .set({ ...change, reviewNotes: notes, updatedAt: now() })
      .where(eq(apps.id, appId))
      .returning();
    await notifyReviewOutcome(tx, { appId, approved: false, notes, cause: `rejected:${rejected.updatedAt.getTime()}` });
    await recordActivity(tx, {
      appId,
      ...byOf(by),
      action: "app.rejected",
      target: { type: "app", id: appId },
      details: { version: app.version, notes },
    });
    return rejected;
  });
}
