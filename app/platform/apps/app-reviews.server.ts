/**
 * App reviews by merchants (issue 20, decision 022): who may review, one review per business and
 * app, the developer's one public reply, a reviewer's hiding with a reason the author sees, and
 * the developer's notifications. The marketplace figures (rating sum/count/average, active
 * production installs) are kept on the apps row by triggers (migration 0016) in the same
 * transaction as the review or installation change.
 */
import { and, count, eq, getTableColumns, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database, Db, Tx } from "../../../db/client";
import {
  accounts,
  appReviews,
  apps,
  businesses,
  developerNotifications,
  installations,
  type AppReview,
  type Installation,
} from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";

import { REVIEW_BODY_MAX } from "./marketplace-shared";
import { getDeveloperApp } from "./app-lookups.server";
import { newestFirst, pageWithTotal } from "../core/paging.server";
export { REVIEW_BODY_MAX };
/** An installation uninstalled sooner than this after it was installed does not qualify (stuffing). */
export const MIN_INSTALL_MS = 3600 * 1000;
/** The admin Apps page invites a review after this much use. */
export const REVIEW_INVITE_AFTER_MS = 7 * 24 * 3600 * 1000;

export const reviewSchema = z.object({
  rating: z
    .number({ message: "must be a whole number from 1 to 5" })
    .int("must be a whole number from 1 to 5")
    .min(1, "must be a whole number from 1 to 5")
    .max(5, "must be a whole number from 1 to 5"),
  body: z
    .string({ message: "must be text" })
    .trim()
    .max(REVIEW_BODY_MAX, `must be at most ${REVIEW_BODY_MAX} characters`)
    .default(""),
});
export const replySchema = z.object({
  body: z
    .string({ message: "must be text" })
    .trim()
    .min(1, "is required")
    .max(REVIEW_BODY_MAX, `must be at most ${REVIEW_BODY_MAX} characters`),
});
export const hideSchema = z.object({
  reason: z.string({ message: "must be text" }).trim().min(1, "is required: the author is shown it").max(1000),
});

export type ReviewInput = z.infer<typeof reviewSchema>;

/** Whether one installation qualifies its business to review the app. */
export function installationQualifies(
  i: Pick<Installation, "isTestInstall" | "status" | "installedAt" | "uninstalledAt">,
): boolean {
  if (i.isTestInstall) return false;
  if (i.status === "ACTIVE") return true;
  return !!i.uninstalledAt && i.uninstalledAt.getTime() - i.installedAt.getTime() >= MIN_INSTALL_MS;
}

const qualifyingSql = sql`(not ${installations.isTestInstall} and (${installations.status} = 'ACTIVE' or ${installations.uninstalledAt} - ${installations.installedAt} >= interval '1 hour'))`;

/** The reason a business may not review the app, or null when it may. */
export async function reviewRefusal(db: Db, businessId: string, appId: string): Promise<string | null> {
  const [row] = await db
    .select({
      sandbox: sql<boolean>`exists (select 1 from ${accounts} d where d.id = ${apps.developerId} and d.business_id = ${businessId})`,
      anySandbox: sql<boolean>`exists (select 1 from ${businesses} b where b.id = ${businessId} and b.is_sandbox)`,
      qualifying: sql<boolean>`exists (select 1 from ${installations} where ${installations.appId} = ${appId} and ${installations.businessId} = ${businessId} and ${qualifyingSql})`,
    })
    .from(apps)
    .where(eq(apps.id, appId));
  if (!row) return "App not found";
  if (row.sandbox) return "The app's own developer cannot review it from their sandbox business";
  // a developer's sandbox holds test data and reviews nobody's app (decision 036)
  if (row.anySandbox) return "A sandbox business does not review apps";
  if (!row.qualifying)
    return "Only a business with a production installation of the app may review it (test installs and installations removed within an hour do not count)";
  return null;
}

async function businessInstallation(db: Db, businessId: string, installationId: string) {
  const [row] = await db
    .select({ installation: installations, developerId: apps.developerId, appName: apps.name })
    .from(installations)
    .innerJoin(apps, eq(apps.id, installations.appId))
    .where(and(eq(installations.id, installationId), eq(installations.businessId, businessId)));
  if (!row) throw new ApiError(404, "Installation not found");
  return row;
}

export function serializeReview(r: AppReview & { businessName: string }, options: { forAuthor?: boolean } = {}) {
  return {
    id: r.id,
    appId: r.appId,
    businessName: r.businessName,
    rating: r.rating,
    body: r.body,
    reply: r.replyBody ? { body: r.replyBody, createdAt: r.repliedAt!.toISOString() } : null,
    hidden: !!r.hiddenAt,
    ...(options.forAuthor || r.hiddenAt ? { hiddenReason: r.hiddenReason ?? null } : {}),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}
export type ReviewJson = ReturnType<typeof serializeReview>;

async function notify(tx: Tx, developerId: string, appId: string, type: string, data: Record<string, unknown>) {
  await tx
    .insert(developerNotifications)
    .values({ id: newId("ntf"), developerId, appId, type, data, createdAt: now() });
}

/**
 * Writes (or replaces) the business's review of the installation's app. One statement decides
 * between create and replace (insert ... on conflict do update on app_reviews_key), so that many
 * identical requests at once end with exactly one review. A hidden review that is edited stays hidden.
 */
export async function putReview(db: Database, businessId: string, installationId: string, input: ReviewInput) {
  const { installation, developerId } = await businessInstallation(db, businessId, installationId);
  const refusal = await reviewRefusal(db, businessId, installation.appId);
  if (refusal) throw new ApiError(403, refusal);
  return db.transaction(async (tx) => {
    const t = now();
    const [row] = await tx
      .insert(appReviews)
      .values({
        id: newId("rvw"),
        appId: installation.appId,
        businessId,
        installationId,
        rating: input.rating,
        body: input.body,
        createdAt: t,
        updatedAt: t,
      })
      .onConflictDoUpdate({
        target: [appReviews.appId, appReviews.businessId],
        set: { rating: input.rating, body: input.body, installationId, updatedAt: t },
      })
      .returning({ ...getTableColumns(appReviews), created: sql<boolean>`(xmax = 0)` });
    const { created, ...review } = row;
    await notify(tx, developerId, installation.appId, created ? "app_review.created" : "app_review.updated", {
      reviewId: review.id,
      rating: input.rating,
    });
    const [b] = await tx.select({ name: businesses.name }).from(businesses).where(eq(businesses.id, businessId));
    return serializeReview({ ...review, businessName: b.name }, { forAuthor: true });
  });
}

export async function deleteReview(db: Database, businessId: string, installationId: string) {
  const { installation } = await businessInstallation(db, businessId, installationId);
  const removed = await db
    .delete(appReviews)
    .where(and(eq(appReviews.appId, installation.appId), eq(appReviews.businessId, businessId)))
    .returning({ id: appReviews.id });
  if (removed.length === 0) throw new ApiError(404, "Review not found");
}

/**
 * Apps the business used before and has no active installation of now ("Previously installed" on
 * the admin Apps page): one entry per app with a production installation that qualifies it to
 * review (kept at least an hour; test installs and quick install-uninstalls are left out, the
 * "Removed apps" record still lists them), newest uninstall first, with the business's own review
 * and whether it may review (the developer's sandbox may not). `installationId` names the
 * installation a review is written through (decision 028).
 */
export async function previouslyInstalledApps(db: Db, businessId: string, limit = 50) {
  const rows = await db.execute<{
    installation_id: string;
    app_id: string;
    app_name: string;
    app_slug: string;
    app_status: string;
    icon_url: string | null;
    first_installed_at: string;
    last_uninstalled_at: string;
  }>(sql`
    select distinct on (i.app_id) i.id as installation_id, i.app_id, a.name as app_name, a.slug as app_slug, a.status as app_status, a.icon_url,
      min(i.installed_at) over (partition by i.app_id) as first_installed_at,
      max(i.uninstalled_at) over (partition by i.app_id) as last_uninstalled_at
    from installations i join apps a on a.id = i.app_id
    where i.business_id = ${businessId} and not i.is_test_install and i.status = 'UNINSTALLED'
      and i.uninstalled_at - i.installed_at >= interval '1 hour'
      and not exists (select 1 from installations x where x.business_id = i.business_id and x.app_id = i.app_id and x.status = 'ACTIVE')
    order by i.app_id, i.uninstalled_at desc, i.id desc`);
  const list = [...rows]
    .sort(
      (a, b) =>
        Date.parse(String(b.last_uninstalled_at)) - Date.parse(String(a.last_uninstalled_at)) ||
        a.app_name.localeCompare(b.app_name),
    )
    .slice(0, limit);
  return Promise.all(
    list.map(async (r) => {
      const [review, refusal] = await Promise.all([
        getOwnReview(db, businessId, r.app_id),
        reviewRefusal(db, businessId, r.app_id),
      ]);
      return {
        installationId: r.installation_id,
        appId: r.app_id,
        appName: r.app_name,
        appSlug: r.app_status === "APPROVED" ? r.app_slug : null,
        iconUrl: r.icon_url,
        firstInstalledAt: new Date(r.first_installed_at).toISOString(),
        lastUninstalledAt: new Date(r.last_uninstalled_at).toISOString(),
        review,
        reviewBlocked: refusal,
      };
    }),
  );
}

/** The business's own review of the installation's app (hidden or not), or null. */
export async function getOwnReview(db: Db, businessId: string, appId: string) {
  const [row] = await db
    .select({ review: appReviews, businessName: businesses.name })
    .from(appReviews)
    .innerJoin(businesses, eq(businesses.id, appReviews.businessId))
    .where(and(eq(appReviews.appId, appId), eq(appReviews.businessId, businessId)));
  return row ? serializeReview({ ...row.review, businessName: row.businessName }, { forAuthor: true }) : null;
}

/**
 * Reviews of an app, newest first, optionally of one star rating. Public callers see visible
 * reviews only; the developer sees hidden ones too (marked, with the reason).
 */
export async function listAppReviews(
  db: Db,
  appId: string,
  options: { limit: number; offset: number; stars?: number; includeHidden?: boolean },
) {
  const conditions = [eq(appReviews.appId, appId)];
  if (!options.includeHidden) conditions.push(isNull(appReviews.hiddenAt));
  if (options.stars) conditions.push(eq(appReviews.rating, options.stars));
  const where = and(...conditions);
  const newest = db
    .select({ review: appReviews, businessName: businesses.name })
    .from(appReviews)
    .innerJoin(businesses, eq(businesses.id, appReviews.businessId));
  const { rows, total } = await pageWithTotal(
    db,
    newest,
    { from: appReviews, where, order: newestFirst(appReviews) },
    options,
  );
  return {
    rows: rows.map((r) =>
      serializeReview({ ...r.review, businessName: r.businessName }, { forAuthor: options.includeHidden }),
    ),
    total,
  };
}

/** How many visible reviews have each star rating (1..5). */
export async function starCounts(db: Db, appId: string): Promise<Record<number, number>> {
  const rows = await db
    .select({ rating: appReviews.rating, n: count() })
    .from(appReviews)
    .where(and(eq(appReviews.appId, appId), isNull(appReviews.hiddenAt)))
    .groupBy(appReviews.rating);
  const out: Record<number, number> = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
  for (const r of rows) out[r.rating] = r.n;
  return out;
}

/** The developer's one public reply; a second is 409 (compare-and-set on reply_body is null). */
export async function replyToReview(db: Db, developerId: string, appId: string, reviewId: string, body: string) {
  await getDeveloperApp(db, developerId, appId);
  const [review] = await db
    .select({ id: appReviews.id, replyBody: appReviews.replyBody })
    .from(appReviews)
    .where(and(eq(appReviews.id, reviewId), eq(appReviews.appId, appId)));
  if (!review) throw new ApiError(404, "Review not found");
  const [updated] = await db
    .update(appReviews)
    .set({ replyBody: body, repliedAt: now() })
    .where(and(eq(appReviews.id, reviewId), isNull(appReviews.replyBody)))
    .returning();
  if (!updated) throw new ApiError(409, "The review already has a reply; a review is answered once");
  const [b] = await db.select({ name: businesses.name }).from(businesses).where(eq(businesses.id, updated.businessId));
  return serializeReview({ ...updated, businessName: b.name }, { forAuthor: true });
}

/** A reviewer hides a review that breaks the policy; its author sees the reason on their Apps page. */
export async function hideReview(db: Db, reviewerId: string, reviewId: string, reason: string) {
  const [updated] = await db
    .update(appReviews)
    .set({
      hiddenAt: sql`coalesce(${appReviews.hiddenAt}, ${now().toISOString()}::timestamptz)`,
      hiddenReason: reason,
      hiddenBy: reviewerId,
    })
    .where(eq(appReviews.id, reviewId))
    .returning();
  if (!updated) throw new ApiError(404, "Review not found");
  const [b] = await db.select({ name: businesses.name }).from(businesses).where(eq(businesses.id, updated.businessId));
  return serializeReview({ ...updated, businessName: b.name }, { forAuthor: true });
}

export async function unhideReview(db: Db, reviewId: string) {
  const [updated] = await db
    .update(appReviews)
    .set({ hiddenAt: null, hiddenReason: null, hiddenBy: null })
    .where(eq(appReviews.id, reviewId))
    .returning({ id: appReviews.id });
  if (!updated) throw new ApiError(404, "Review not found");
}

/** The developer's notifications, newest first. */
export async function listNotifications(db: Db, developerId: string, page: { limit: number; offset: number }) {
  const where = eq(developerNotifications.developerId, developerId);
  const rows = db
    .select({ n: developerNotifications, appName: apps.name })
    .from(developerNotifications)
    .innerJoin(apps, eq(apps.id, developerNotifications.appId));
  return pageWithTotal(
    db,
    rows,
    { from: developerNotifications, where, order: newestFirst(developerNotifications) },
    page,
  );
}

/**
 * An uninstall within an hour of the install takes back the business's review when no other
 * installation qualifies it (called in the uninstall's transaction).
 */
export async function dropUnqualifiedReview(tx: Tx, installation: Installation, uninstalledAt: Date) {
  if (installation.isTestInstall || uninstalledAt.getTime() - installation.installedAt.getTime() >= MIN_INSTALL_MS)
    return;
  await tx.execute(sql`
    delete from app_reviews r where r.app_id = ${installation.appId} and r.business_id = ${installation.businessId}
      and not exists (select 1 from installations where ${installations.appId} = r.app_id and ${installations.businessId} = r.business_id and ${installations.id} <> ${installation.id} and ${qualifyingSql})`);
}

/** Staff picks: a reviewer picks or unpicks an approved app. */
export async function setStaffPick(db: Db, appId: string, picked: boolean) {
  const [updated] = await db
    .update(apps)
    .set({ staffPickedAt: picked ? sql`coalesce(${apps.staffPickedAt}, ${now().toISOString()}::timestamptz)` : null })
    .where(and(eq(apps.id, appId), eq(apps.status, "APPROVED")))
    .returning({ id: apps.id, staffPickedAt: apps.staffPickedAt });
  if (!updated) throw new ApiError(404, "App not found among approved apps");
  return { appId: updated.id, staffPick: !!updated.staffPickedAt };
}

export async function dismissReviewPrompt(db: Db, businessId: string, installationId: string) {
  const updated = await db
    .update(installations)
    .set({ reviewPromptDismissedAt: now() })
    .where(and(eq(installations.id, installationId), eq(installations.businessId, businessId)))
    .returning({ id: installations.id });
  if (updated.length === 0) throw new ApiError(404, "Installation not found");
}
