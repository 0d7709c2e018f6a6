import { pgTable, text, boolean, integer, bigint, jsonb, index, uniqueIndex, numeric } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { counter, createdAt, id, refersTo, textList, timestamps, ts, updatedAt } from "./columns";
import { accounts, ofBusiness } from "./accounts";
import type { StoredPlan } from "./billing";

export const APP_STATUSES = ["DRAFT", "PENDING_REVIEW", "APPROVED"] as const;

export const apps = pgTable(
  "apps",
  {
    id: id(),
    developerId: refersTo("developer_id", () => accounts.id),
    clientId: text("client_id").notNull(),
    clientSecretHash: text("client_secret_hash").notNull(),
    /** encrypted (AES-256-GCM, ENCRYPTION_KEY): it signs the admin-page session tokens */
    clientSecretEnc: text("client_secret_enc"),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    description: text("description").notNull(),
    category: text("category").notNull(),
    scopes: text("scopes").array().notNull(),
    approvedScopes: textList("approved_scopes"),
    redirectUrl: text("redirect_url").notNull(),
    webhookUrl: text("webhook_url"),
    webhookEvents: textList("webhook_events"),
    iconUrl: text("icon_url"),
    screenshots: textList("screenshots"),
    version: text("version").notNull().default("1.0.0"),
    /**
     * The API version the app is pinned to (contract 12, decision 041): its App API answers, webhooks
     * and hook calls are in this version unless a request names another (Api-Version). Apps made
     * before versions existed keep 2026-11-21 (today's shape); a new app gets the current one.
     */
    apiVersion: text("api_version").notNull().default("2026-11-21"),
    status: text("status", { enum: APP_STATUSES }).notNull().default("DRAFT"),
    updateInReview: boolean("update_in_review").notNull().default(false),
    reviewNotes: text("review_notes"),
    manifest: jsonb("manifest").$type<Record<string, unknown> | null>(),
    /** the pricing plans the developer set (issue 33); take effect as approvedPricing when approved */
    pricing: jsonb("pricing").$type<StoredPlan[]>().notNull().default([]),
    /** the plans merchants see and subscribe to; an approval copies pricing here */
    approvedPricing: jsonb("approved_pricing").$type<StoredPlan[]>().notNull().default([]),
    submittedAt: ts("submitted_at"),
    ...timestamps(),
    publishedAt: ts("published_at"),
    /** what the developer wrote for the version in review; copied onto the version record at approval */
    releaseNotes: text("release_notes"),
    /**
     * Marketplace figures, kept by triggers in the same transaction as the review or installation
     * change (migration 0016): visible reviews' rating sum and count, their average (2 decimals), and
     * active production installations.
     */
    ratingSum: bigint("rating_sum", { mode: "number" }).notNull().default(0),
    ratingCount: counter("rating_count"),
    ratingAvg: numeric("rating_avg", { precision: 3, scale: 2 }),
    activeInstalls: counter("active_installs"),
    /** set by a reviewer: the app shows in the marketplace's "Staff picks" row */
    staffPickedAt: ts("staff_picked_at"),
  },
  (t) => [
    uniqueIndex("apps_slug_key").on(t.slug),
    // the marketplace's sorts, each an index walk within a category (or across all) of approved apps
    index("apps_market_rating_idx")
      .on(t.category, t.ratingAvg.desc().nullsLast(), t.ratingCount.desc(), t.id)
      .where(sql`status = 'APPROVED'`),
    index("apps_market_popular_idx")
      .on(t.category, t.activeInstalls.desc(), t.id)
      .where(sql`status = 'APPROVED'`),
    index("apps_market_newest_idx")
      .on(t.category, t.publishedAt.desc().nullsLast(), t.id)
      .where(sql`status = 'APPROVED'`),
    index("apps_market_all_rating_idx")
      .on(t.ratingAvg.desc().nullsLast(), t.ratingCount.desc(), t.id)
      .where(sql`status = 'APPROVED'`),
    index("apps_market_all_popular_idx")
      .on(t.activeInstalls.desc(), t.id)
      .where(sql`status = 'APPROVED'`),
    index("apps_staff_picks_idx")
      .on(t.staffPickedAt.desc())
      .where(sql`staff_picked_at is not null`),
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
    appId: refersTo("app_id", () => apps.id),
    version: text("version").notNull(),
    scopes: text("scopes").array().notNull(),
    manifest: jsonb("manifest").$type<Record<string, unknown> | null>(),
    reviewerId: text("reviewer_id").references(() => accounts.id),
    approvedAt: ts("approved_at").notNull(),
    releaseNotes: text("release_notes"),
  },
  (t) => [index("app_versions_app_idx").on(t.appId, t.approvedAt.desc().nullsFirst())],
);

export const installations = pgTable(
  "installations",
  {
    id: id(),
    appId: refersTo("app_id", () => apps.id),
    businessId: ofBusiness(),
    status: text("status", { enum: ["ACTIVE", "UNINSTALLED"] })
      .notNull()
      .default("ACTIVE"),
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
    /** the merchant dismissed the invitation to review the app (admin Apps page) */
    reviewPromptDismissedAt: ts("review_prompt_dismissed_at"),
  },
  (t) => [
    uniqueIndex("installations_token_key").on(t.accessTokenHash),
    uniqueIndex("installations_active_key")
      .on(t.appId, t.businessId)
      .where(sql`status = 'ACTIVE'`),
    index("installations_business_idx").on(t.businessId, t.status),
    index("installations_app_idx").on(t.appId, t.installedAt),
  ],
);

export const oauthCodes = pgTable(
  "oauth_codes",
  {
    id: id(),
    codeHash: text("code_hash").notNull(),
    appId: refersTo("app_id", () => apps.id),
    accountId: refersTo("account_id", () => accounts.id),
    businessId: ofBusiness(),
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
    appId: refersTo("app_id", () => apps.id),
    kind: text("kind", { enum: EXTENSION_KINDS }).notNull(),
    key: text("key").notNull(),
    definition: jsonb("definition").$type<Record<string, unknown>>().notNull(),
    isActive: boolean("is_active").notNull().default(true),
    ...timestamps(),
  },
  (t) => [uniqueIndex("extensions_key").on(t.appId, t.kind, t.key)],
);

/** Where the merchant put a floating widget: its corner, how far above the bottom edge (px), and whether phones show it. */
export type WidgetPlacement = { corner: "bottom_right" | "bottom_left"; offset: number; showOnPhones: boolean };

/** Per-installation state of an embed: merchant's on/off switch and settings. */
export const embedSettings = pgTable(
  "embed_settings",
  {
    installationId: refersTo("installation_id", () => installations.id),
    embedType: text("embed_type").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    settings: jsonb("settings").$type<Record<string, unknown>>(),
    /** A FLOATING_WIDGET's place as the merchant chose it (corner, offset, phones); null: the manifest's corner (decision 061). */
    placement: jsonb("placement").$type<WidgetPlacement>(),
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
    consecutiveFailures: counter("consecutive_failures"),
    openUntil: ts("open_until"),
  },
  (t) => [uniqueIndex("hook_breakers_key").on(t.installationId, t.hookPoint)],
);

export const rateLimitWindows = pgTable(
  "rate_limit_windows",
  {
    installationId: text("installation_id").notNull(),
    windowStart: ts("window_start").notNull(),
    count: counter("count"),
  },
  (t) => [uniqueIndex("rate_limit_windows_key").on(t.installationId, t.windowStart)],
);

/**
 * A business's review of an app: one per business and app (app_reviews_key); written through an
 * installation of the app that qualifies (a production installation, not the developer's sandbox,
 * not uninstalled within an hour). Hidden reviews stay for their author, with the reason.
 */
export const appReviews = pgTable(
  "app_reviews",
  {
    id: id(),
    appId: refersTo("app_id", () => apps.id),
    businessId: ofBusiness(),
    installationId: refersTo("installation_id", () => installations.id),
    rating: integer("rating").notNull(),
    body: text("body").notNull().default(""),
    replyBody: text("reply_body"),
    repliedAt: ts("replied_at"),
    hiddenAt: ts("hidden_at"),
    hiddenReason: text("hidden_reason"),
    hiddenBy: text("hidden_by").references(() => accounts.id),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("app_reviews_key").on(t.appId, t.businessId),
    index("app_reviews_app_idx")
      .on(t.appId, t.createdAt.desc(), t.id)
      .where(sql`hidden_at is null`),
    index("app_reviews_app_rating_idx")
      .on(t.appId, t.rating, t.createdAt.desc(), t.id)
      .where(sql`hidden_at is null`),
  ],
);

/** The developer portal's notifications (app_review.created / app_review.updated). */
export const developerNotifications = pgTable(
  "developer_notifications",
  {
    id: id(),
    developerId: refersTo("developer_id", () => accounts.id),
    appId: refersTo("app_id", () => apps.id),
    type: text("type").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    readAt: ts("read_at"),
  },
  (t) => [index("developer_notifications_dev_idx").on(t.developerId, t.createdAt.desc(), t.id)],
);

export type App = typeof apps.$inferSelect;
export type AppReview = typeof appReviews.$inferSelect;
export type DeveloperNotification = typeof developerNotifications.$inferSelect;
export type AppVersion = typeof appVersions.$inferSelect;
export type Installation = typeof installations.$inferSelect;
export type Extension = typeof extensions.$inferSelect;
export type HookBreaker = typeof hookBreakers.$inferSelect;
