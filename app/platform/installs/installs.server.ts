/**
 * Installations: creation (OAuth consent and sandbox test installs), tokens, re-consent and
 * uninstall (contract section 4).
 */
import type { AppCaller } from "../apps/caller";
import { newWebhookSecret } from "../outbound/signing-secret.server";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Database, Db, Tx } from "../../../db/client";
import { apps, businesses, installations, webhooks, type App, type Installation } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { ApiError } from "../core/http.server";
import { newId, randomToken } from "../core/ids.server";
import { now } from "../core/clock.server";
import { decrypt, encrypt, sha256 } from "../core/crypto.server";
import { rawQuery, readColumns, selectColumns } from "../../../db/sql";
import { eventAllowed } from "../shapes/app-catalog";
import { addJob, removeJob } from "../core/jobs.server";
import { sendAppUninstalled } from "../events/special-sends.server";
import { dropUnqualifiedReview } from "../apps/app-reviews.server";
import { pageWithTotal } from "../core/paging.server";
import { byOf, recordActivity, type ActivityBy } from "../activity/activity.server";
import { businessRow, lockBusinessRow } from "../core/business-rows.server";
import { endForUninstall } from "../billing/subscriptions.server";

export const ERASURE_DELAY_MS = 48 * 3600 * 1000;

export const newAccessToken = (test: boolean) => `${test ? "fbat_test_" : "fbat_"}${randomToken(32)}`;
export const erasureJobKey = (installationId: string) => `erasure:${installationId}`;

export function webhookSecretOf(installation: Installation, env: Env): string {
  return decrypt(installation.webhookSecretEnc, env.encryptionKey);
}

/**
 * Installs an app on a business: the installation row, the app's own webhook registration (when
 * it has a webhookUrl), and the cancellation of an erasure still pending from an uninstall of the
 * same app on the same business within 48 hours. Tokens are issued separately.
 */
export async function createInstallation(
  tx: Tx,
  env: Env,
  input: { app: App; businessId: string; scopes: string[]; isTestInstall: boolean; installedBy: string },
  options: { alreadyInstalled?: string; by?: ActivityBy } = {},
): Promise<{ installation: Installation; webhookSecret: string }> {
  const t = now();
  const webhookSecret = newWebhookSecret(input.isTestInstall);
  // One active installation per app and business (installations_active_key). The insert does nothing
  // when another transaction holds it, even one not yet committed (it waits for it), so the
  // caller's transaction stays usable and the loser is answered 409 with the caller's words.
  const [installation] = await tx
    .insert(installations)
    .values({
      id: newId("inst"),
      appId: input.app.id,
      businessId: input.businessId,
      scopes: input.scopes,
      isTestInstall: input.isTestInstall,
      webhookSecretEnc: encrypt(webhookSecret, env.encryptionKey),
      installedBy: input.installedBy,
      installedAt: t,
    })
    .onConflictDoNothing({ target: [installations.appId, installations.businessId], where: sql`status = 'ACTIVE'` })
    .returning();
  if (!installation)
    throw new ApiError(409, options.alreadyInstalled ?? "The app is already installed on this business");
  if (input.app.webhookUrl) {
    await tx.insert(webhooks).values({
      id: newId("wh"),
      installationId: installation.id,
      appId: input.app.id,
      businessId: input.businessId,
      url: input.app.webhookUrl,
      events: input.app.webhookEvents.filter((e) => eventAllowed(e, input.scopes)),
      secretEnc: installation.webhookSecretEnc,
      description: "Created at install from the app's webhook URL",
      isInstallDefault: true,
      createdAt: t,
      updatedAt: t,
    });
  }
  // a reinstall within 48 hours cancels the pending erasure of the previous installation
  const pending = await tx
    .select({ id: installations.id })
    .from(installations)
    .where(
      and(
        eq(installations.appId, input.app.id),
        eq(installations.businessId, input.businessId),
        eq(installations.status, "UNINSTALLED"),
        sql`${installations.erasureScheduledAt} is not null`,
        sql`${installations.erasureDeliveredAt} is null`,
      ),
    );
  for (const p of pending) {
    await tx.update(installations).set({ erasureScheduledAt: null }).where(eq(installations.id, p.id));
    await removeJob(tx, erasureJobKey(p.id));
  }
  // in the business's log and the app's (contract 18); without `by`, the platform did it (demo data)
  await recordActivity(tx, {
    businessId: input.businessId,
    appId: input.app.id,
    ...byOf(options.by),
    action: "installation.created",
    target: { type: "installation", id: installation.id },
    details: { app: input.app.name, scopes: input.scopes, test: input.isTestInstall },
  });
  return { installation, webhookSecret };
}

/** Issues a new access token for the installation; any earlier token stops working at once. */
export async function issueAccessToken(tx: Db, installation: Installation): Promise<string> {
  const token = newAccessToken(installation.isTestInstall);
  await tx
    .update(installations)
    .set({ accessTokenHash: sha256(token) })
    .where(eq(installations.id, installation.id));
  return token;
}

/**
 * The installation behind an access token (with its app and business), and, when `window` is
 * given, the request counted in that rate-limit window, in one statement: the App API's hot path
 * is one round trip before the query itself. Missing, malformed, unknown or revoked: 401, and
 * nothing counted.
 */
export const CALLER_SQL = `
  select ${selectColumns(installations, "i")}, ${selectColumns(businesses, "b")}, a."id" as "a.id", a."slug" as "a.slug", a."name" as "a.name", a."api_version" as "a.apiVersion"
  from installations i join apps a on a.id = i.app_id join businesses b on b.id = i.business_id
  where i.access_token_hash = $1 and i.status = 'ACTIVE'`;
/**
 * The caller and this request counted in its installation's window. The count row is one that every
 * request of an app updates (a flash sale: many at once): the statement commits without waiting for
 * its WAL flush (synchronous_commit off, for this statement only), so the row is held for the update
 * alone, never through a disk flush. The count stays exact across processes (the row lock orders
 * the increments); a database crash may forget the last fraction of a second of counts.
 */
export const CALLER_COUNTED_SQL = `
  with caller as (${CALLER_SQL}),
  hit as (
    insert into rate_limit_windows (installation_id, window_start, count) select "i.id", $2::timestamptz, 1 from caller
    on conflict (installation_id, window_start) do update set count = rate_limit_windows.count + 1
    returning count),
  quick as (select set_config('synchronous_commit', 'off', true))
  select caller.*, (select count from hit) as "hits", (select count(*) from quick)::int as "quick" from caller`;

export async function authenticateInstallation(db: Database, authorization: string | null): Promise<AppCaller>;
export async function authenticateInstallation(
  db: Database,
  authorization: string | null,
  window: Date,
): Promise<AppCaller & { hits: number }>;
export async function authenticateInstallation(
  db: Database,
  authorization: string | null,
  window?: Date,
): Promise<AppCaller & { hits?: number }> {
  const match = /^Bearer\s+(fbat_\S+)$/i.exec(authorization ?? "");
  if (!match) throw new ApiError(401, authorization ? "Invalid access token" : "Missing bearer token");
  const hash = sha256(match[1]);
  const [row] = window
    ? await rawQuery<Record<string, any>>(db, CALLER_COUNTED_SQL, [hash, window.toISOString()])
    : await rawQuery<Record<string, any>>(db, CALLER_SQL, [hash]);
  if (!row) throw new ApiError(401, "Invalid or revoked access token");
  return {
    installation: readColumns(installations, "i", row),
    business: readColumns(businesses, "b", row),
    app: { id: row["a.id"], slug: row["a.slug"], name: row["a.name"], apiVersion: row["a.apiVersion"] },
    ...(window ? { hits: Number(row.hits) } : {}),
  };
}

/** The business's installation with this id, whatever its status; 404 for an unknown id or another business's. */
export function getBusinessInstallation(db: Db, businessId: string, installationId: string) {
  return businessRow(db, installations, businessId, eq(installations.id, installationId), "Installation not found");
}

/** The active installation of an app on a business; `lock` holds its row until the transaction ends (an uninstall waits). */
export async function getActiveInstallation(
  db: Db,
  appId: string,
  businessId: string,
  options: { lock?: boolean } = {},
): Promise<Installation | undefined> {
  const query = db
    .select()
    .from(installations)
    .where(
      and(eq(installations.appId, appId), eq(installations.businessId, businessId), eq(installations.status, "ACTIVE")),
    );
  const [row] = options.lock ? await query.for("update") : await query;
  return row;
}

/**
 * Uninstall, in the caller's transaction: token revoked, webhooks deactivated, the app's blocks
 * removed from the business's pages (embeds stop with the installation), app.uninstalled recorded
 * and sent to the install registration, business.data_erasure scheduled for uninstalledAt + 48 h.
 */
export async function uninstall(tx: Tx, installation: Installation, by?: ActivityBy): Promise<Installation> {
  if (installation.status !== "ACTIVE") throw new ApiError(409, "The app is already uninstalled");
  const t = now();
  const erasureAt = new Date(t.getTime() + ERASURE_DELAY_MS);
  const [done] = await tx
    .update(installations)
    .set({
      status: "UNINSTALLED",
      accessTokenHash: null,
      uninstalledAt: t,
      erasureScheduledAt: erasureAt,
      needsReConsent: false,
    })
    .where(and(eq(installations.id, installation.id), eq(installations.status, "ACTIVE")))
    .returning();
  if (!done) throw new ApiError(409, "The app is already uninstalled");
  await tx.update(webhooks).set({ isActive: false, updatedAt: t }).where(eq(webhooks.installationId, installation.id));
  // its subscriptions end (the last period billed prorated) and pending requests are declined (contract 13)
  await endForUninstall(tx, installation.id);
  // an install removed within the hour does not qualify its business to review the app (decision 022)
  await dropUnqualifiedReview(tx, installation, t);
  await tx.execute(sql`
    update pages set blocks = coalesce((select jsonb_agg(b order by ord) from jsonb_array_elements(blocks) with ordinality as e(b, ord)
                                        where not (b->>'kind' = 'app' and b->>'appId' = ${installation.appId})), '[]'::jsonb),
                     updated_at = ${t.toISOString()}::timestamptz
    where business_id = ${installation.businessId}
      and exists (select 1 from jsonb_array_elements(blocks) b where b->>'kind' = 'app' and b->>'appId' = ${installation.appId})`);
  await sendAppUninstalled(tx, installation, t);
  await recordActivity(tx, {
    businessId: installation.businessId,
    appId: installation.appId,
    ...byOf(by),
    action: "installation.uninstalled",
    target: { type: "installation", id: installation.id },
    details: { test: installation.isTestInstall },
  });
  await addJob(
    tx,
    "installation__erasure",
    { installationId: installation.id },
    { runAt: erasureAt, jobKey: erasureJobKey(installation.id) },
  );
  return done;
}

/** The merchant approves the scopes an approved update added: the same token grants them all. */
export async function approveAddedScopes(
  db: Database,
  businessId: string,
  installationId: string,
  by?: ActivityBy,
): Promise<Installation> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ installation: installations, app: apps })
      .from(installations)
      .innerJoin(apps, eq(apps.id, installations.appId))
      .where(and(eq(installations.id, installationId), eq(installations.businessId, businessId)))
      .for("update");
    if (!row) throw new ApiError(404, "Installation not found");
    if (row.installation.status !== "ACTIVE") throw new ApiError(409, "The app is uninstalled");
    const scopes = [...new Set([...row.installation.scopes, ...row.app.approvedScopes])];
    const [updated] = await tx
      .update(installations)
      .set({ scopes, needsReConsent: false })
      .where(eq(installations.id, installationId))
      .returning();
    // the app's own registration may now receive the events of the new scopes
    await tx
      .update(webhooks)
      .set({ events: row.app.webhookEvents.filter((e) => eventAllowed(e, scopes)), updatedAt: now() })
      .where(and(eq(webhooks.installationId, installationId), eq(webhooks.isInstallDefault, true)));
    await recordActivity(tx, {
      businessId,
      appId: row.app.id,
      ...byOf(by),
      action: "installation.scopes_approved",
      target: { type: "installation", id: installationId },
      details: { app: row.app.name, scopes, added: scopes.filter((x) => !row.installation.scopes.includes(x)) },
    });
    return updated;
  });
}

export async function uninstallForBusiness(
  db: Database,
  businessId: string,
  installationId: string,
  by?: ActivityBy,
): Promise<Installation> {
  return db.transaction(async (tx) => {
    return uninstall(
      tx,
      await lockBusinessRow(tx, installations, businessId, installationId, "Installation not found"),
      by,
    );
  });
}

export function serializeInstallation(i: Installation, appName: string) {
  return {
    installationId: i.id,
    appId: i.appId,
    appName,
    status: i.status,
    scopes: i.scopes,
    needsReConsent: i.needsReConsent,
    isTestInstall: i.isTestInstall,
    installedAt: i.installedAt.toISOString(),
    uninstalledAt: i.uninstalledAt?.toISOString() ?? null,
    erasureScheduledAt: i.erasureScheduledAt?.toISOString() ?? null,
    erasureDeliveredAt: i.erasureDeliveredAt?.toISOString() ?? null,
  };
}

/** The business's installations, uninstalled ones included: the merchant's compliance record. */
export async function listBusinessInstallations(db: Db, businessId: string, page: { limit: number; offset: number }) {
  const where = eq(installations.businessId, businessId);
  const rows = db
    .select({
      installation: installations,
      appName: apps.name,
      appSlug: apps.slug,
      iconUrl: apps.iconUrl,
      approvedScopes: apps.approvedScopes,
    })
    .from(installations)
    .innerJoin(apps, eq(apps.id, installations.appId));
  return pageWithTotal(
    db,
    rows,
    { from: installations, where, order: [desc(installations.installedAt), desc(installations.id)] },
    page,
  );
}
