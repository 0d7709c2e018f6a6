/**
 * Apps: records, credentials, the developer's edits and submission (contract section 2).
 */
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { byOf, recordActivity, type ActivityBy } from "../activity/activity.server";
import { z } from "zod";
import type { Database, Db } from "../../../db/client";
import { accounts, appMembers, apps, appVersions, type App } from "../../../db/schema";
import { currentVersion, supportedList, supportedVersions } from "../versions/registry";
import type { Env } from "../core/env.server";
import { uniqueViolation } from "../../../db/sql";
import { ApiError, parseWith } from "../core/http.server";
import { newId, randomToken } from "../core/ids.server";
import { now } from "../core/clock.server";
import { encrypt, safeEqual, sha256 } from "../core/crypto.server";
import { webUrl } from "../core/validation.server";
import { appUrlProblem } from "../core/urls";
import { CATEGORIES, SCOPE_NAMES, SUBSCRIBABLE_EVENTS } from "../shapes/app-catalog";
import { parseManifest, syncManifest } from "../extensions/manifest.server";
import { assertEditable, getDeveloperApp, lockEditableApp } from "./app-lookups.server";
import { newestFirst, pageWithTotal } from "../core/paging.server";
import { approvedAppsWhere, listingColumns } from "./marketplace.server";
import { PricingInput, planIn, planOut } from "../shapes/pricing";

export { assertEditable, getDeveloperApp };

export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const VERSION_PATTERN = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

function appFields(env: Pick<Env, "isProduction">) {
  const url = webUrl(env);
  return {
    name: z.string().trim().min(1, "is required").max(100),
    description: z.string().trim().min(1, "is required").max(500),
    category: z.enum(CATEGORIES, { message: `must be one of ${CATEGORIES.join(", ")}` }),
    scopes: z
      .array(
        z.enum(SCOPE_NAMES as [string, ...string[]], { message: `must be known scopes (${SCOPE_NAMES.join(", ")})` }),
      )
      .min(1, "must name at least one scope")
      .transform((s) => [...new Set(s)]),
    redirectUrl: url,
    webhookUrl: url.nullable().optional(),
    webhookEvents: z
      .array(
        z.enum(SUBSCRIBABLE_EVENTS as [string, ...string[]], {
          message:
            "must be known event names (the platform sends business.data_erasure, app.uninstalled, compliance and billing events by itself)",
        }),
      )
      .transform((s) => [...new Set(s)])
      .optional(),
    iconUrl: url.nullable().optional(),
    screenshots: z.array(url).max(5, "at most 5 screenshots").optional(),
    version: z.string().trim().regex(VERSION_PATTERN, "must look like 1.0.0").optional(),
    manifest: z.record(z.string(), z.unknown()).nullable().optional(),
    pricing: PricingInput.transform((plans) => plans.map(planIn)).optional(),
  };
}

const apiVersionField = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be an API version, a date like 2026-11-27")
  .optional()
  .describe("the API version the app is pinned to (GET /app-api/versions lists them); a new app: the current one");

export function createAppSchema(env: Pick<Env, "isProduction">) {
  return z.object({
    ...appFields(env),
    apiVersion: apiVersionField,
    slug: z
      .string()
      .min(3, "must be 3-50 characters")
      .max(50, "must be 3-50 characters")
      .regex(SLUG_PATTERN, "must be lowercase letters, digits and single hyphens"),
  });
}

export function updateAppSchema(env: Pick<Env, "isProduction">) {
  const f = appFields(env);
  return z
    .object({
      name: f.name.optional(),
      description: f.description.optional(),
      category: f.category.optional(),
      scopes: f.scopes.optional(),
      redirectUrl: f.redirectUrl.optional(),
      webhookUrl: f.webhookUrl,
      webhookEvents: f.webhookEvents,
      iconUrl: f.iconUrl,
      screenshots: f.screenshots,
      version: f.version,
      manifest: f.manifest,
      pricing: f.pricing,
      apiVersion: apiVersionField,
    })
    .strict();
}

/**
 * The bodies of POST and PATCH /developer/apps as the Platform API declares them: any absolute
 * http(s) URL. Production's https-only rule needs the settings, so `checkAppUrls` applies it after
 * the declared schema.
 */
export const AppCreateBody = createAppSchema({ isProduction: false }).meta({ id: "AppCreate" });
export const AppUpdateBody = updateAppSchema({ isProduction: false }).meta({ id: "AppUpdate" });

/** Production's rule for an app's URLs (https only), after the declared body schema; 400 naming the field. */
export function checkAppUrls(
  env: Pick<Env, "isProduction">,
  input: { redirectUrl?: string; webhookUrl?: string | null; iconUrl?: string | null; screenshots?: string[] },
) {
  if (!env.isProduction) return;
  const fields: [string, string | null | undefined][] = [
    ["redirectUrl", input.redirectUrl],
    ["webhookUrl", input.webhookUrl],
    ["iconUrl", input.iconUrl],
    ...(input.screenshots ?? []).map((u, i): [string, string] => [`screenshots.${i}`, u]),
  ];
  for (const [field, value] of fields) {
    const problem = value ? appUrlProblem(value, { httpsOnly: true }) : null;
    if (problem) throw new ApiError(400, `${field}: ${problem}`);
  }
}

export type CreateAppInput = z.infer<ReturnType<typeof createAppSchema>>;
export type UpdateAppInput = z.infer<ReturnType<typeof updateAppSchema>>;

/** The app record as JSON (never the client secret). */
export function serializeApp(app: App) {
  return {
    id: app.id,
    clientId: app.clientId,
    name: app.name,
    slug: app.slug,
    description: app.description,
    category: app.category,
    scopes: app.scopes,
    approvedScopes: app.approvedScopes,
    redirectUrl: app.redirectUrl,
    webhookUrl: app.webhookUrl,
    webhookEvents: app.webhookEvents,
    iconUrl: app.iconUrl,
    screenshots: app.screenshots,
    version: app.version,
    apiVersion: app.apiVersion,
    status: app.status,
    updateInReview: app.updateInReview,
    reviewNotes: app.reviewNotes,
    // the release notes of the version in review (written at submit); null once it is approved,
    // when they move onto its version record (decision 022 §8, decision 028)
    releaseNotes: app.releaseNotes ?? null,
    manifest: app.manifest,
    // the plans as set (pending review on an approved app) and as merchants see them (contract 13)
    pricing: app.pricing.map(planOut),
    approvedPricing: app.approvedPricing.map(planOut),
    createdAt: app.createdAt.toISOString(),
    updatedAt: app.updatedAt.toISOString(),
    publishedAt: app.publishedAt?.toISOString() ?? null,
  };
}
export type AppJson = ReturnType<typeof serializeApp>;

const newClientSecret = () => `fbcs_${randomToken(32)}`;

export async function createApp(
  db: Database,
  env: Pick<Env, "encryptionKey">,
  developerId: string,
  input: CreateAppInput,
) {
  if (input.apiVersion !== undefined) checkPinnableVersion(input.apiVersion);
  const manifest = input.manifest ? parseManifest(input.manifest) : null;
  const clientSecret = newClientSecret();
  const t = now();
  try {
    const app = await db.transaction(async (tx) => {
      const [app] = await tx
        .insert(apps)
        .values({
          id: newId("app"),
          developerId,
          clientId: `fbci_${newId("x", 24).slice(2)}`,
          clientSecretHash: sha256(clientSecret),
          clientSecretEnc: encrypt(clientSecret, env.encryptionKey),
          name: input.name,
          slug: input.slug,
          description: input.description,
          category: input.category,
          scopes: input.scopes,
          redirectUrl: input.redirectUrl,
          webhookUrl: input.webhookUrl ?? null,
          webhookEvents: input.webhookEvents ?? [],
          iconUrl: input.iconUrl ?? null,
          screenshots: input.screenshots ?? [],
          version: input.version ?? "1.0.0",
          // a new app starts on the current API version (contract 12) unless it names another supported one
          apiVersion: input.apiVersion ?? currentVersion(t),
          manifest: manifest as Record<string, unknown> | null,
          pricing: input.pricing ?? [],
          createdAt: t,
          updatedAt: t,
        })
        .returning();
      // its creator is the app's OWNER (contract 17)
      await tx.insert(appMembers).values({ appId: app.id, accountId: developerId, role: "OWNER", createdAt: t });
      if (manifest) await syncManifest(tx, app.id, manifest);
      return app;
    });
    return { app, clientSecret };
  } catch (e) {
    if (uniqueViolation(e) === "apps_slug_key") throw new ApiError(409, `The slug "${input.slug}" is taken`);
    throw e;
  }
}

export async function listDeveloperApps(db: Db, developerId: string, page: { limit: number; offset: number }) {
  // the apps the developer is a member of (contract 17), their own and those they were invited to
  const where = sql`exists (select 1 from ${appMembers} m where m.app_id = ${apps.id} and m.account_id = ${developerId})`;
  return pageWithTotal(db, db.select().from(apps), { from: apps, where, order: newestFirst(apps) }, page);
}

/** A developer's own app; another developer's app is 404, as if it did not exist. */
/** Reads a PATCH body: slug, clientId and status cannot be changed. */
export function parseAppUpdate(env: Pick<Env, "isProduction">, body: unknown): UpdateAppInput {
  refuseImmutableFields(body);
  return parseWith(updateAppSchema(env), body);
}

/** The contract's refusals of fields a PATCH may not change, before the body's schema (their wording is fixed). */
export function refuseImmutableFields(body: unknown) {
  if (body && typeof body === "object" && !Array.isArray(body)) {
    if ("slug" in body) throw new ApiError(400, "slug is immutable");
    if ("clientId" in body) throw new ApiError(400, "clientId is immutable");
    if ("status" in body) throw new ApiError(400, "status changes only through submit and review");
  }
}

/** The version an app may be pinned to now: a supported one, else 400 naming them. */
export function checkPinnableVersion(version: string) {
  const t = now();
  if (!supportedVersions(t).some((s) => s.version === version))
    throw new ApiError(400, `apiVersion: ${version} is not a supported API version; supported: ${supportedList(t)}`);
}

/**
 * Changes an app's fields. The app's log gets a "settings.changed" entry naming each field that
 * changed, from what to what (the manifest only as changed: it is large, and its own sync is
 * logged as "manifest.synced" when it comes through PUT .../manifest); a change of nothing is no entry.
 */
export async function updateApp(
  db: Database,
  developerId: string,
  appId: string,
  input: UpdateAppInput,
  by?: ActivityBy,
): Promise<App> {
  if (input.apiVersion !== undefined) checkPinnableVersion(input.apiVersion);
  return db.transaction(async (tx) => {
    // the API version is the app's operating setting, not a reviewed field: it changes in review too
    const onlyVersion = Object.keys(input).every((k) => k === "apiVersion");
    const before = onlyVersion
      ? await getDeveloperApp(tx, developerId, appId)
      : await lockEditableApp(tx, developerId, appId);
    if (input.manifest !== undefined)
      await syncManifest(tx, appId, input.manifest ? parseManifest(input.manifest) : null);
    const [updated] = await tx
      .update(apps)
      .set({ ...input, updatedAt: now() })
      .where(eq(apps.id, appId))
      .returning();
    const changed: Record<string, unknown> = {};
    for (const key of Object.keys(input) as (keyof UpdateAppInput & keyof App)[]) {
      if (input[key] === undefined || JSON.stringify(before[key]) === JSON.stringify(updated[key])) continue;
      changed[key] = key === "manifest" ? { changed: true } : { from: before[key], to: updated[key] };
    }
    if (Object.keys(changed).length)
      await recordActivity(tx, {
        appId,
        ...byOf(by),
        action: "settings.changed",
        target: { type: "app", id: appId },
        details: changed,
      });
    return updated;
  });
}

export const submitSchema = z.object({
  releaseNotes: z.string({ message: "must be text" }).trim().max(5000, "must be at most 5,000 characters").optional(),
});

/**
 * DRAFT -> PENDING_REVIEW; an APPROVED app goes into review as an update and stays installable.
 * The release notes (optional) go onto the version record when the version is approved.
 */
export async function submitApp(
  db: Database,
  developerId: string,
  appId: string,
  input: { releaseNotes?: string } = {},
  by?: ActivityBy,
): Promise<App> {
  return db.transaction(async (tx) => {
    const app = await lockEditableApp(tx, developerId, appId);
    const t = now();
    const change = app.status === "APPROVED" ? { updateInReview: true } : { status: "PENDING_REVIEW" as const };
    const [updated] = await tx
      .update(apps)
      .set({ ...change, releaseNotes: input.releaseNotes || null, submittedAt: t, updatedAt: t })
      .where(eq(apps.id, appId))
      .returning();
    await recordActivity(tx, {
      appId,
      ...byOf(by),
      action: "app.submitted",
      target: { type: "app", id: appId },
      details: { version: updated.version, update: app.status === "APPROVED" },
    });
    return updated;
  });
}

/**
 * A new client secret; the old one fails at once. Compare-and-set on the secret the request saw, so
 * that of two regenerations at the same moment exactly one answers with a secret, and it is the
 * one that works; the other is told so (409) instead of being shown a secret already replaced.
 */
export async function regenerateClientSecret(
  db: Database,
  env: Pick<Env, "encryptionKey">,
  developerId: string,
  appId: string,
  by?: ActivityBy,
): Promise<string> {
  const { clientSecretHash: hash } = await getDeveloperApp(db, developerId, appId);
  const current = { hash };
  const clientSecret = newClientSecret();
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(apps)
      .set({
        clientSecretHash: sha256(clientSecret),
        clientSecretEnc: encrypt(clientSecret, env.encryptionKey),
        updatedAt: now(),
      })
      .where(and(eq(apps.id, appId), eq(apps.clientSecretHash, current.hash)))
      .returning({ id: apps.id });
    if (updated.length === 0)
      throw new ApiError(
        409,
        "The client secret was regenerated by another request at the same moment; the secret that request showed is the one that works. Regenerate again for a new one.",
      );
    // never the secret itself: who, when, from where
    await recordActivity(tx, { appId, ...byOf(by), action: "app.secret_rotated", target: { type: "app", id: appId } });
    return clientSecret;
  });
}

/** Constant-time check of client credentials; null when they do not match an app. */
export async function verifyClientCredentials(db: Db, clientId: string, clientSecret: string): Promise<App | null> {
  const [app] = await db.select().from(apps).where(eq(apps.clientId, clientId));
  const expected = app?.clientSecretHash ?? sha256("no-such-client");
  const ok = safeEqual(expected, sha256(clientSecret));
  return app && ok ? app : null;
}

export async function listAppVersions(db: Db, appId: string) {
  return db
    .select()
    .from(appVersions)
    .where(eq(appVersions.appId, appId))
    .orderBy(desc(appVersions.approvedAt), desc(appVersions.id));
}

/** An approved version as the developer JSON shows it (GET /developer/apps/<app_id>), newest first. */
export function serializeVersion(v: typeof appVersions.$inferSelect) {
  return {
    id: v.id,
    version: v.version,
    scopes: v.scopes,
    releaseNotes: v.releaseNotes ?? null,
    approvedAt: v.approvedAt.toISOString(),
  };
}

/** Published apps for the marketplace: filter by category, search by name. */
export async function listMarketplaceApps(db: Db, filter: { category?: string; q?: string }) {
  return db
    .select(listingColumns)
    .from(apps)
    .innerJoin(accounts, eq(accounts.id, apps.developerId))
    .where(approvedAppsWhere(filter))
    .orderBy(asc(apps.name));
}

export async function getMarketplaceApp(db: Db, slug: string) {
  const [row] = await db
    .select({ app: apps, developerName: accounts.name })
    .from(apps)
    .innerJoin(accounts, eq(accounts.id, apps.developerId))
    .where(and(eq(apps.slug, slug), eq(apps.status, "APPROVED")));
  return row ?? null;
}
