import { bigserial, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, id, ts } from "./columns";

/**
 * Releases (contract 19, decision 077): each one is the app's whole configuration document as it
 * was applied, numbered 1, 2, 3… per app, with the diff from the release before it. A release is
 * never changed; restoring an old one writes a new release equal to it.
 */
export const appReleases = pgTable(
  "app_releases",
  {
    id: id(),
    appId: text("app_id").notNull(),
    version: integer("version").notNull(),
    /** the configuration document (name, description, scopes, redirectUrl, webhookUrl, webhookEvents, pricing, apiVersion, manifest) */
    config: jsonb("config").$type<Record<string, unknown>>().notNull(),
    /** [{path, op, before?, after?}] from the previous release (for an app's first, from its configuration just before, else from nothing) */
    diff: jsonb("diff")
      .$type<{ path: string; op: "added" | "removed" | "changed"; before?: unknown; after?: unknown }[]>()
      .notNull(),
    message: text("message"),
    /** APPLIED (a draft changed at once, or nothing needing review) or IN_REVIEW (an approved app's update in review) */
    status: text("status").notNull(),
    /** "portal" (an edit in the portal) or "api" (deploy, the JSON API) */
    source: text("source").notNull().default("api"),
    restoredFrom: integer("restored_from"),
    accountId: text("account_id"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("app_releases_app_version_key").on(t.appId, t.version)],
);

/**
 * The App API requests of the last minutes, for the developer's live logs (contract 19, decision
 * 078): written in batches by each web process (never one write per request), read by the logs
 * stream (the last 15 minutes replayed), kept a day and then deleted by the hourly devtools__prune_logs.
 */
export const appApiRequests = pgTable(
  "app_api_requests",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    appId: text("app_id").notNull(),
    installationId: text("installation_id").notNull(),
    businessId: text("business_id").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    status: integer("status").notNull(),
    durationMs: integer("duration_ms").notNull(),
    apiVersion: text("api_version").notNull(),
    at: ts("at").notNull(),
  },
  (t) => [index("app_api_requests_app_idx").on(t.appId, t.seq), index("app_api_requests_at_idx").on(t.at)],
);
