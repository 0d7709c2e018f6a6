/**
 * The answer schemas of the Platform API (/merchant, /review; decision 025). Request bodies are the
 * domains' own input schemas, declared by the route modules; shapes the App API shares (Page) are
 * the App API's schemas.
 */
import { z } from "zod";
import { APP_STATUSES } from "../../../db/schema/apps";
import { listOf } from "../app-api/schemas";

const isoDate = z.string().describe("ISO 8601 timestamp");

/** Contract 2: the app record, never the client secret. */
export const AppRecord = z
  .object({
    id: z.string(), clientId: z.string(), name: z.string(), slug: z.string(), description: z.string(), category: z.string(),
    scopes: z.array(z.string()), approvedScopes: z.array(z.string()).describe("the scopes of the last approved version: what installs grant"),
    redirectUrl: z.string(), webhookUrl: z.string().nullable(), webhookEvents: z.array(z.string()), iconUrl: z.string().nullable(), screenshots: z.array(z.string()),
    version: z.string(), status: z.enum(APP_STATUSES), updateInReview: z.boolean(), reviewNotes: z.string().nullable(),
    manifest: z.record(z.string(), z.unknown()).nullable(), createdAt: isoDate, updatedAt: isoDate, publishedAt: isoDate.nullable(),
  })
  .meta({ id: "AppRecord" });
export const AppRecordList = listOf(AppRecord, "AppRecordList");

/** Contract 4: a merchant's installation, uninstalled ones included (the compliance record). */
export const MerchantInstallation = z
  .object({
    installationId: z.string(), appId: z.string(), appName: z.string(), status: z.enum(["ACTIVE", "UNINSTALLED"]), scopes: z.array(z.string()),
    needsReConsent: z.boolean(), isTestInstall: z.boolean(), installedAt: isoDate, uninstalledAt: isoDate.nullable(),
    erasureScheduledAt: isoDate.nullable().describe("when business.data_erasure is due (uninstall + 48 h); null when cancelled by a reinstall"),
    erasureDeliveredAt: isoDate.nullable(),
  })
  .meta({ id: "MerchantInstallation" });
export const MerchantInstallationList = listOf(MerchantInstallation, "MerchantInstallationList");

export const Uninstalled = z.object({ uninstalled: z.literal(true) }).meta({ id: "Uninstalled" });

export const EmbedState = z
  .object({ installationId: z.string(), embedType: z.string(), enabled: z.boolean(), settings: z.record(z.string(), z.unknown()) })
  .meta({ id: "EmbedState" });

export const AppSettingsState = z.object({ installationId: z.string(), settings: z.record(z.string(), z.unknown()) }).meta({ id: "AppSettingsState" });

/** A merchant's review of an app (decision 022), as its author and the reviewers see it. */
export const AppReview = z
  .object({
    id: z.string(), appId: z.string(), businessName: z.string(), rating: z.number().int().min(1).max(5), body: z.string(),
    reply: z.object({ body: z.string(), createdAt: isoDate }).nullable().describe("the developer's reply"),
    hidden: z.boolean(), hiddenReason: z.string().nullable().optional().describe("why platform staff hid it; shown to its author"),
    createdAt: isoDate, updatedAt: isoDate,
  })
  .meta({ id: "AppReview" });
