import { pgTable, text, boolean, integer, jsonb, index, uniqueIndex } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { createdAt, id, ts, updatedAt } from "./columns";
import { accounts, businesses } from "./accounts";

export const APP_STATUSES = ["DRAFT", "PENDING_REVIEW", "APPROVED"] as const;

export const apps = pgTable(
  "apps",
  {
    id: id(),
    developerId: text("developer_id").notNull().references(() => accounts.id),
    clientId: text("client_id").notNull(),
    clientSecretHash: text("client_secret_hash").notNull(),
    /** encrypted (AES-256-GCM, ENCRYPTION_KEY): it signs the admin-page session tokens */
    clientSecretEnc: text("client_secret_enc"),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    description: text("description").notNull(),
    category: text("category").notNull(),
    scopes: text("scopes").array().notNull(),
    approvedScopes: text("approved_scopes").array().notNull().default(sql`'{}'::text[]`),
    redirectUrl: text("redirect_url").notNull(),
    webhookUrl: text("webhook_url"),
    webhookEvents: text("webhook_events").array().notNull().default(sql`'{}'::text[]`),
    iconUrl: text("icon_url"),
    screenshots: text("screenshots").array().notNull().default(sql`'{}'::text[]`),
    version: text("version").notNull().default("1.0.0"),
    status: text("status", { enum: APP_STATUSES }).notNull().default("DRAFT"),
    updateInReview: boolean("update_in_review").notNull().default(false),
    reviewNotes: text("review_notes"),
    manifest: jsonb("manifest").$type<Record<string, unknown> | null>(),
    submittedAt: ts("submitted_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    publishedAt: ts("published_at"),
  },
  (t) => [
    uniqueIndex("apps_slug_key").on(t.slug),
    uniqueIndex("apps_client_id_key").on(t.clientId),
    index("apps_developer_idx").on(t.developerId, t.createdAt.desc().nullsFirst()),
    index("apps_status_idx").on(t.status, t.category),
  ],
);

/** One row per approval: what was approved and when. */
export const appVersions = pgTable(
  "app_versions",
  {
    id: id(),
    appId: text("app_id").notNull().references(() => apps.id),
    version: text("version").notNull(),
    scopes: text("scopes").array().notNull(),
    manifest: jsonb("manifest").$type<Record<string, unknown> | null>(),
    reviewerId: text("reviewer_id").references(() => accounts.id),
    approvedAt: ts("approved_at").notNull(),
  },
  (t) => [index("app_versions_app_idx").on(t.appId, t.approvedAt.desc().nullsFirst())],
);

export const installations = pgTable(
  "installations",
  {
    id: id(),
    appId: text("app_id").notNull().references(() => apps.id),
    businessId: text("business_id").notNull().references(() => businesses.id),
    status: text("status", { enum: ["ACTIVE", "UNINSTALLED"] }).notNull().default("ACTIVE"),
    /** scopes the token grants now */
    scopes: text("scopes").array().notNull(),
    needsReConsent: boolean("needs_re_consent").notNull().default(false),
    isTestInstall: boolean("is_test_install").notNull().default(false),
    accessTokenHash: text("access_token_hash"),
    webhookSecretEnc: text("webhook_secret_enc").notNull(),
    settings: jsonb("settings").$type<Record<string, unknown>>().notNull().default({}),
    installedBy: text("installed_by").references(() => accounts.id),
    installedAt: ts("installed_at").notNull(),
    uninstalledAt: ts("uninstalled_at"),
    erasureScheduledAt: ts("erasure_scheduled_at"),
    erasureDeliveredAt: ts("erasure_delivered_at"),
  },
  (t) => [
    uniqueIndex("installations_token_key").on(t.accessTokenHash),
    uniqueIndex("installations_active_key").on(t.appId, t.businessId).where(sql`status = 'ACTIVE'`),
    index("installations_business_idx").on(t.businessId, t.status),
    index("installations_app_idx").on(t.appId, t.installedAt),
  ],
);

export const oauthCodes = pgTable(
  "oauth_codes",
  {
    id: id(),
    codeHash: text("code_hash").notNull(),
    appId: text("app_id").notNull().references(() => apps.id),
    accountId: text("account_id").notNull().references(() => accounts.id),
    businessId: text("business_id").notNull().references(() => businesses.id),
    redirectUri: text("redirect_uri").notNull(),
    scopes: text("scopes").array().notNull(),
    codeChallenge: text("code_challenge"),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    /** installation and token issued from this code, revoked on a second use */
    installationId: text("installation_id"),
    issuedTokenHash: text("issued_token_hash"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("oauth_codes_hash_key").on(t.codeHash)],
);

export const EXTENSION_KINDS = ["block", "embed", "hook", "adminPage"] as const;
export type ExtensionKind = (typeof EXTENSION_KINDS)[number];

export const extensions = pgTable(
  "extensions",
  {
    id: id(),
    appId: text("app_id").notNull().references(() => apps.id),
    kind: text("kind", { enum: EXTENSION_KINDS }).notNull(),
    key: text("key").notNull(),
    definition: jsonb("definition").$type<Record<string, unknown>>().notNull(),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("extensions_key").on(t.appId, t.kind, t.key)],
);

/** Per-installation state of an embed: merchant's on/off switch and settings. */
export const embedSettings = pgTable(
  "embed_settings",
  {
    installationId: text("installation_id").notNull().references(() => installations.id),
    embedType: text("embed_type").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    settings: jsonb("settings").$type<Record<string, unknown>>(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("embed_settings_key").on(t.installationId, t.embedType)],
);

export const hookCalls = pgTable(
  "hook_calls",
  {
    id: id(),
    appId: text("app_id").notNull(),
    installationId: text("installation_id").notNull(),
    businessId: text("business_id").notNull(),
    hookPoint: text("hook_point").notNull(),
    success: boolean("success").notNull(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [index("hook_calls_app_idx").on(t.appId, t.createdAt.desc().nullsFirst())],
);

export const hookBreakers = pgTable(
  "hook_breakers",
  {
    installationId: text("installation_id").notNull(),
    hookPoint: text("hook_point").notNull(),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    openUntil: ts("open_until"),
  },
  (t) => [uniqueIndex("hook_breakers_key").on(t.installationId, t.hookPoint)],
);

export const rateLimitWindows = pgTable(
  "rate_limit_windows",
  {
    installationId: text("installation_id").notNull(),
    windowStart: ts("window_start").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [uniqueIndex("rate_limit_windows_key").on(t.installationId, t.windowStart)],
);

export type App = typeof apps.$inferSelect;
export type AppVersion = typeof appVersions.$inferSelect;
export type Installation = typeof installations.$inferSelect;
export type Extension = typeof extensions.$inferSelect;
export type HookBreaker = typeof hookBreakers.$inferSelect;
