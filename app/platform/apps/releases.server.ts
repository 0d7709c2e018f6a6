/**
 * Releases (contract 19, decision 077): an app's whole configuration as one JSON document
 * (`storefront-apps.json` in the developer's repository), applied at once and kept as a numbered
 * release with its diff. Every edit of the configuration, through a release, the portal or the
 * JSON API, becomes a release, so the list is the app's history; restoring an old release writes a
 * new one equal to it. Here, in the apps domain, so that the apps' own code (the portal's actions,
 * PATCH, PUT manifest) records releases without reaching above its layer.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database, Db } from "../../../db/client";
import { appReleases, apps, type App } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { ApiError, parseWith } from "../core/http.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { parseManifest, syncManifest } from "../extensions/manifest.server";
import { planIn, planOut, PricingInput } from "../shapes/pricing";
import { checkAppUrls, checkPinnableVersion, updateAppSchema } from "./apps.server";
import { lockEditableApp } from "./app-lookups.server";

/** The fields of the configuration document, in the order the document and its diffs show them. */
export const CONFIG_FIELDS = [
  "name",
  "description",
  "scopes",
  "redirectUrl",
  "webhookUrl",
  "webhookEvents",
  "pricing",
  "apiVersion",
  "manifest",
] as const;

export type ReleaseConfig = {
  name: string;
  description: string;
  scopes: string[];
  redirectUrl: string;
  webhookUrl: string | null;
  webhookEvents: string[];
  pricing: ReturnType<typeof planOut>[];
  apiVersion: string;
  manifest: Record<string, unknown> | null;
};

export type DiffEntry = { path: string; op: "added" | "removed" | "changed"; before?: unknown; after?: unknown };

/** The configuration document as validated input: the app's own field rules (400 naming the field). */
export function releaseConfigSchema(env: Pick<Env, "isProduction">) {
  const f = updateAppSchema(env).shape;
  return z
    .object({
      name: f.name.unwrap(),
      description: f.description.unwrap(),
      scopes: f.scopes.unwrap(),
      redirectUrl: f.redirectUrl.unwrap(),
      webhookUrl: f.webhookUrl,
      webhookEvents: f.webhookEvents,
      pricing: PricingInput.optional(),
      apiVersion: f.apiVersion,
      manifest: z.record(z.string(), z.unknown()).nullable().optional(),
    })
    .strict()
    .meta({ id: "ReleaseConfig" });
}
/** The declared body schema (production's https rule is applied after it, as for PATCH). */
export const ReleaseConfigInput = releaseConfigSchema({ isProduction: false });
export type ReleaseConfigParsed = z.output<typeof ReleaseConfigInput>;

/** An app's configuration document as it stands. */
export function configOf(app: App): ReleaseConfig {
  return {
    name: app.name,
    description: app.description,
    scopes: app.scopes,
    redirectUrl: app.redirectUrl,
    webhookUrl: app.webhookUrl,
    webhookEvents: app.webhookEvents,
    pricing: app.pricing.map(planOut),
    apiVersion: app.apiVersion,
    manifest: app.manifest,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isObjectArray = (v: unknown): v is Record<string, unknown>[] => Array.isArray(v) && v.every(isObject);
/** JSON with every object's keys sorted (jsonb reorders keys, so stored and fresh values compare alike). */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    isObject(x)
      ? Object.fromEntries(
          Object.keys(x)
            .sort()
            .map((k) => [k, x[k]]),
        )
      : x,
  );
const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/**
 * A readable JSON diff: one entry per added, removed or changed path (`manifest.blocks.0.name`).
 * Objects and lists of objects are compared member by member; a list of plain values (scopes,
 * events) is one value. `null`/absent count as absent.
 */
export function diffConfigs(before: unknown, after: unknown, at = ""): DiffEntry[] {
  const path = (k: string | number) => (at ? `${at}.${k}` : String(k));
  if (before === undefined || before === null)
    return after === undefined || after === null ? [] : [{ path: at, op: "added", after }];
  if (after === undefined || after === null) return [{ path: at, op: "removed", before }];
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((k) => diffConfigs(before[k], after[k], path(k)));
  }
  if (isObjectArray(before) && isObjectArray(after) && (before.length || after.length)) {
    const n = Math.max(before.length, after.length);
    return Array.from({ length: n }, (_, i) => diffConfigs(before[i], after[i], path(i))).flat();
  }
  return same(before, after) ? [] : [{ path: at, op: "changed", before, after }];
}

/**
 * A release's diff: from the release before it; for an app's first release, from the app's
 * configuration just before it when known, else from nothing (every field added).
 */
const diffFrom = (previous: ReleaseConfig | null, next: ReleaseConfig) => diffConfigs(previous ?? {}, next);

async function lastRelease(db: Db, appId: string) {
  const [row] = await db
    .select()
    .from(appReleases)
    .where(eq(appReleases.appId, appId))
    .orderBy(desc(appReleases.version))
    .limit(1);
  return row ?? null;
}

/** Scopes or pricing other than the approved ones: an approved app's update that needs review (contract 2, 13). */
function needsReview(app: App) {
  return (
    app.status === "APPROVED" &&
    (!same([...app.scopes].sort(), [...app.approvedScopes].sort()) || !same(app.pricing, app.approvedPricing))
  );
}

async function insertRelease(
  tx: Db,
  app: App,
  values: {
    accountId: string | null;
    message?: string | null;
    status: "APPLIED" | "IN_REVIEW";
    source: "api" | "portal";
    restoredFrom?: number | null;
    before?: ReleaseConfig | null;
  },
) {
  const previous = await lastRelease(tx, app.id);
  const config = configOf(app);
  const diff = diffFrom((previous?.config as ReleaseConfig | undefined) ?? values.before ?? null, config);
  const [row] = await tx
    .insert(appReleases)
    .values({
      id: newId("rel"),
      appId: app.id,
      version: (previous?.version ?? 0) + 1,
      config,
      diff,
      message: values.message || null,
      status: values.status,
      source: values.source,
      restoredFrom: values.restoredFrom ?? null,
      accountId: values.accountId,
      createdAt: now(),
    })
    .returning();
  return row;
}

/**
 * After an edit of the app saved elsewhere (the portal's forms, PATCH, PUT manifest): a release of
 * the configuration as it now stands, when it differs from the last release. Returns it, or null
 * when the edit touched nothing of the configuration (an icon, screenshots).
 */
export async function recordRelease(
  db: Database,
  appId: string,
  accountId: string | null,
  options: { source?: "api" | "portal"; before?: App; message?: string } = {},
) {
  return db.transaction(async (tx) => {
    const [app] = await tx.select().from(apps).where(eq(apps.id, appId)).for("update");
    if (!app) return null;
    const previous = await lastRelease(tx, appId);
    const before = options.before ? configOf(options.before) : null;
    if (same(previous?.config ?? before, configOf(app))) return null;
    const status = app.updateInReview || app.status === "PENDING_REVIEW" ? "IN_REVIEW" : "APPLIED";
    return insertRelease(tx, app, {
      accountId,
      message: options.message,
      status,
      source: options.source ?? "portal",
      before,
    });
  });
}

/** What a release would change: the configuration it would write and its diff from the last release. */
export function normalizeConfig(app: App, input: ReleaseConfigParsed): ReleaseConfig {
  return {
    name: input.name,
    description: input.description,
    scopes: input.scopes,
    redirectUrl: input.redirectUrl,
    webhookUrl: input.webhookUrl ?? null,
    webhookEvents: input.webhookEvents ?? [],
    pricing: (input.pricing ?? []).map(planIn).map(planOut),
    apiVersion: input.apiVersion ?? app.apiVersion,
    manifest: input.manifest ?? null,
  };
}

export type ReleaseResult = { version: number; diff: DiffEntry[]; status: "APPLIED" | "IN_REVIEW"; dryRun?: true };

/**
 * POST /developer/apps/<id>/releases: the configuration validated whole (400 naming the field,
 * nothing applied), then applied in one transaction through the app's own rules: a draft changes
 * at once; an approved app's listing and manifest change at once and, when its scopes or pricing
 * differ from the approved ones, the release goes into review as its update (IN_REVIEW). An app
 * already in review refuses (409), as its edits do. `dryRun` only answers the diff.
 */
export async function createRelease(
  db: Database,
  env: Pick<Env, "isProduction">,
  accountId: string,
  appId: string,
  input: { config: ReleaseConfigParsed; message?: string },
  options: { dryRun?: boolean; restoredFrom?: number } = {},
): Promise<ReleaseResult> {
  const config = input.config;
  checkAppUrls(env, { redirectUrl: config.redirectUrl, webhookUrl: config.webhookUrl });
  const manifest = config.manifest ? parseManifest(config.manifest) : null;
  return db.transaction(async (tx) => {
    const app = await lockEditableApp(tx, accountId, appId);
    if (config.apiVersion !== undefined && config.apiVersion !== app.apiVersion)
      checkPinnableVersion(config.apiVersion);
    const next = normalizeConfig(app, config);
    const previous = await lastRelease(tx, appId);
    const base = (previous?.config as ReleaseConfig | undefined) ?? configOf(app);
    if (options.dryRun) {
      const status = needsReview({ ...app, scopes: next.scopes, pricing: (config.pricing ?? []).map(planIn) })
        ? "IN_REVIEW"
        : "APPLIED";
      return { version: (previous?.version ?? 0) + 1, diff: diffConfigs(base, next), status, dryRun: true };
    }
    await syncManifest(tx, appId, manifest);
    const t = now();
    const [applied] = await tx
      .update(apps)
      .set({
        name: next.name,
        description: next.description,
        scopes: next.scopes,
        redirectUrl: next.redirectUrl,
        webhookUrl: next.webhookUrl,
        webhookEvents: next.webhookEvents,
        pricing: (config.pricing ?? []).map(planIn),
        apiVersion: next.apiVersion,
        manifest: manifest as Record<string, unknown> | null,
        updatedAt: t,
      })
      .where(eq(apps.id, appId))
      .returning();
    let current = applied;
    const review = needsReview(applied);
    if (review) {
      // as the portal's submit of an approved app: it stays APPROVED and installable (contract 2)
      [current] = await tx
        .update(apps)
        .set({ updateInReview: true, releaseNotes: input.message || null, submittedAt: t, updatedAt: t })
        .where(eq(apps.id, appId))
        .returning();
    }
    const row = await insertRelease(tx, current, {
      accountId,
      message: input.message,
      status: review ? "IN_REVIEW" : "APPLIED",
      source: "api",
      restoredFrom: options.restoredFrom,
      before: base,
    });
    return { version: row.version, diff: row.diff as DiffEntry[], status: row.status as ReleaseResult["status"] };
  });
}

/** POST /developer/apps/<id>/releases/<version>/restore: a new release equal to that one (404 for an unknown version). */
export async function restoreRelease(
  db: Database,
  env: Pick<Env, "isProduction">,
  accountId: string,
  appId: string,
  version: number,
) {
  const [old] = await db
    .select()
    .from(appReleases)
    .where(and(eq(appReleases.appId, appId), eq(appReleases.version, version)));
  if (!old) throw new ApiError(404, `Release ${version} not found`);
  // checked again as input: a release of a version since sunset, say, is refused as a new one would be
  const config = parseWith(releaseConfigSchema(env), old.config);
  return createRelease(
    db,
    env,
    accountId,
    appId,
    { config, message: `Restore of release ${version}` },
    { restoredFrom: version },
  );
}

export function serializeRelease(r: typeof appReleases.$inferSelect) {
  return {
    version: r.version,
    status: r.status,
    source: r.source,
    message: r.message,
    restoredFrom: r.restoredFrom,
    diff: r.diff as DiffEntry[],
    config: r.config as ReleaseConfig,
    createdAt: r.createdAt.toISOString(),
  };
}

/** The app's releases, newest first, a page at a time. */
export async function listReleases(db: Db, appId: string, page: { limit: number; offset: number }) {
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(appReleases)
      .where(eq(appReleases.appId, appId))
      .orderBy(desc(appReleases.version))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(appReleases)
      .where(eq(appReleases.appId, appId)),
  ]);
  return { rows, total };
}
