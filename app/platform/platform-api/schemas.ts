/**
 * The answer schemas of the Platform API (/merchant, /review, /developer, /auth, /oauth/token;
 * decision 025). Request bodies are the
 * domains' own input schemas, declared by the route modules; shapes the App API shares (Page) are
 * the App API's schemas.
 */
import { z } from "zod";
import { manifestJsonSchema } from "../shapes/manifest";
import { APP_STATUSES } from "../../../db/schema/apps";
import { isoDate, listOf, Order, Page } from "../shapes/api";
import { PlanOut } from "../shapes/pricing";
import { APP_ROLES, PERMISSIONS } from "../accounts/permissions";

/** Contract 2: the app record, never the client secret. */
export const AppRecord = z
  .object({
    id: z.string(),
    clientId: z.string(),
    name: z.string(),
    slug: z.string(),
    description: z.string(),
    category: z.string(),
    scopes: z.array(z.string()),
    approvedScopes: z.array(z.string()).describe("the scopes of the last approved version: what installs grant"),
    pricing: z.array(PlanOut).describe("the pricing plans as the developer set them (contract 13)"),
    approvedPricing: z
      .array(PlanOut)
      .describe("the plans of the last approved version: what merchants see and subscribe to"),
    redirectUrl: z.string(),
    webhookUrl: z.string().nullable(),
    webhookEvents: z.array(z.string()),
    iconUrl: z.string().nullable(),
    screenshots: z.array(z.string()),
    version: z.string(),
    apiVersion: z.string().describe("the API version the app is pinned to (contract 12)"),
    status: z.enum(APP_STATUSES),
    updateInReview: z.boolean(),
    reviewNotes: z.string().nullable(),
    releaseNotes: z
      .string()
      .nullable()
      .describe("the release notes of the version in review; null once it is approved"),
    manifest: z.record(z.string(), z.unknown()).nullable(),
    createdAt: isoDate,
    updatedAt: isoDate,
    publishedAt: isoDate.nullable(),
  })
  .meta({ id: "AppRecord" });
export const AppRecordList = listOf(AppRecord, "AppRecordList");

/** Contract 4: a merchant's installation, uninstalled ones included (the compliance record). */
export const MerchantInstallation = z
  .object({
    installationId: z.string(),
    appId: z.string(),
    appName: z.string(),
    status: z.enum(["ACTIVE", "UNINSTALLED"]),
    scopes: z.array(z.string()),
    needsReConsent: z.boolean(),
    isTestInstall: z.boolean(),
    installedAt: isoDate,
    uninstalledAt: isoDate.nullable(),
    erasureScheduledAt: isoDate
      .nullable()
      .describe("when business.data_erasure is due (uninstall + 48 h); null when cancelled by a reinstall"),
    erasureDeliveredAt: isoDate.nullable(),
  })
  .meta({ id: "MerchantInstallation" });
export const MerchantInstallationList = listOf(MerchantInstallation, "MerchantInstallationList");
/** The merchant's site pages: the App API's page, without its cursor (the platform's lists page by number). */
export const MerchantPageList = listOf(Page, "MerchantPageList");

export const Uninstalled = z.object({ uninstalled: z.literal(true) }).meta({ id: "Uninstalled" });

export const EmbedState = z
  .object({
    installationId: z.string(),
    embedType: z.string(),
    enabled: z.boolean(),
    settings: z.record(z.string(), z.unknown()),
    placement: z
      .object({
        corner: z.enum(["bottom_right", "bottom_left"]),
        offset: z.number().int(),
        showOnPhones: z.boolean(),
      })
      .nullable()
      .describe(
        "a floating widget's corner, offset above the bottom edge (px) and whether phones show it; null for a script",
      ),
  })
  .meta({ id: "EmbedState" });

export const AppSettingsState = z
  .object({ installationId: z.string(), settings: z.record(z.string(), z.unknown()) })
  .meta({ id: "AppSettingsState" });

/** A merchant's review of an app (decision 022), as its author and the reviewers see it. */
export const AppReview = z
  .object({
    id: z.string(),
    appId: z.string(),
    businessName: z.string(),
    rating: z.number().int().min(1).max(5),
    body: z.string(),
    reply: z.object({ body: z.string(), createdAt: isoDate }).nullable().describe("the developer's reply"),
    hidden: z.boolean(),
    hiddenReason: z.string().nullable().optional().describe("why platform staff hid it; shown to its author"),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: "AppReview" });

/**
 * The manifest: an object, described in the document by the manifest's own JSON Schema (the one
 * the platform validates with and the portal's editor completes from, `manifestJsonSchema`).
 */
export const ManifestDocument = z.record(z.string(), z.unknown()).meta({
  id: "Manifest",
  description:
    "The app's manifest: blocks, embeds, settingsSchema, hooks and adminPages (docs/developers/extensions.md#the-manifest). The platform validates it against this schema and the settings schemas it holds as JSON Schema; a violation answers 400 naming the field. At most 64 KiB.",
  ...manifestJsonSchema,
});

/** An approved version of an app, newest first (the changelog). */
export const AppVersion = z
  .object({
    id: z.string(),
    version: z.string(),
    scopes: z.array(z.string()),
    releaseNotes: z.string().nullable(),
    approvedAt: isoDate,
  })
  .meta({ id: "AppVersion" });
export const AppDetail = AppRecord.extend({ versions: z.array(AppVersion) }).meta({ id: "AppDetail" });
export const AppCreated = AppRecord.extend({ clientSecret: z.string().describe("shown once; store it now") }).meta({
  id: "AppCreated",
});
export const ClientSecret = z
  .object({ clientSecret: z.string().describe("the new secret; the old one fails at once") })
  .meta({ id: "ClientSecret" });

export const ManifestSaved = z
  .object({
    manifest: ManifestDocument,
    sync: z
      .object({ created: z.array(z.unknown()), updated: z.array(z.unknown()), deactivated: z.array(z.unknown()) })
      .describe("the extensions created, updated and deactivated (with dryRun: what would be)"),
  })
  .meta({ id: "ManifestSaved" });

export const TestInstallation = z
  .object({
    installationId: z.string(),
    accessToken: z.string(),
    webhookSecret: z.string(),
    businessId: z.string(),
    isTestInstall: z.literal(true),
  })
  .meta({ id: "TestInstallation" });
export const TestStatus = z
  .object({
    installed: z.boolean(),
    installation: z
      .object({
        installationId: z.string(),
        businessId: z.string(),
        isTestInstall: z.boolean(),
        needsReConsent: z.boolean(),
        scopes: z.array(z.string()),
        installedAt: isoDate,
      })
      .nullable(),
  })
  .meta({ id: "TestStatus" });

export const TriggeredEvent = z
  .object({
    event: z.string(),
    eventId: z.string().nullable().describe("the platform event (null: the change raised none)"),
    businessId: z.string().describe("the sandbox business"),
    installationId: z.string().describe("the app's installation on the sandbox, the only one the event goes to"),
    object: z
      .object({ kind: z.enum(["order", "product", "review", "installation", "webhook"]), id: z.string() })
      .describe("the real object the trigger made or changed"),
    deliveries: z
      .array(z.object({ id: z.string(), webhookId: z.string(), url: z.string() }))
      .describe("one per registration of the installation the event went to (see its delivery log)"),
  })
  .meta({ id: "TriggeredEvent" });

export const TriggeredHook = z
  .object({
    hookPoint: z.string(),
    installationId: z.string(),
    cart: z
      .object({
        items: z.array(
          z.object({ productId: z.string(), quantity: z.number().int(), name: z.string(), price: z.number().int() }),
        ),
        subtotal: z.number().int().describe("minor units, as hook calls carry money"),
        currency: z.string(),
        deliveryMethod: z.string(),
      })
      .describe("the sandbox cart the checkout priced"),
    calls: z
      .array(
        z.object({
          ok: z.boolean(),
          statusCode: z.number().int().nullable(),
          durationMs: z.number().int(),
          answer: z
            .record(z.string(), z.unknown())
            .optional()
            .describe("the app's answer, as the platform accepted it"),
          error: z.string().optional().describe("why the call was skipped"),
        }),
      )
      .describe("the calls of the app's hook (none when the point was not reached)"),
    outcome: z
      .object({ summary: z.string() })
      .catchall(z.unknown())
      .describe(
        "what the platform made of it: methods shown, the fee used, the discount applied, the payment started, or the refusal",
      ),
  })
  .meta({ id: "TriggeredHook" });

export const AppAnalytics = z
  .object({
    totalInstalls: z.number().int(),
    activeInstalls: z.number().int(),
    webhookSuccessRate: z.number().nullable().describe("percent over the last 30 days; null without deliveries"),
    avgWebhookLatencyMs: z.number().nullable(),
    installTrend: z.array(z.object({ date: z.string(), installs: z.number().int(), uninstalls: z.number().int() })),
    webhookDeliveries: z.array(z.object({ date: z.string(), succeeded: z.number().int(), failed: z.number().int() })),
  })
  .meta({ id: "AppAnalytics" });
export const AppReviewList = listOf(AppReview, "AppReviewList");

export const PublicAccount = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: z.enum(["DEVELOPER", "MERCHANT", "REVIEWER"]),
    emailVerified: z.boolean().describe("whether the account followed the link sent to its address (contract 16)"),
  })
  .meta({ id: "Account" });
export const AccountAnswer = z.object({ account: PublicAccount }).meta({ id: "AccountAnswer" });
export const Accepted = z.object({ message: z.string() }).meta({ id: "Accepted" });
export const AccountToken = z
  .object({
    token: z.string().describe("the account JWT (HS256, 24 hours): `Authorization: Bearer <token>`"),
    account: PublicAccount,
  })
  .meta({ id: "AccountToken" });
export const Registered = AccountToken.extend({
  businessId: z.string().nullable().describe("the merchant's business; null for a developer"),
}).meta({ id: "Registered" });

export const Sandbox = z
  .object({
    businessId: z.string(),
    name: z.string(),
    slug: z.string(),
    storefrontUrl: z.string().describe("the sandbox's storefront (its home page), on the storefront's origin"),
    adminUrl: z.string().describe("the sandbox's merchant admin (sign in as the developer)"),
    builderUrl: z.string().describe("the site builder on the sandbox's home page"),
  })
  .meta({ id: "Sandbox" });

/** Contract 15: everything the platform holds about a shopper at the business (a privacy export). */
export const ShopperExport = z
  .object({
    email: z.string(),
    exportedAt: isoDate,
    orders: z.array(
      Order.extend({ statusHistory: z.array(z.object({ from: z.string().nullable(), to: z.string(), at: isoDate })) }),
    ),
    reviews: z.array(
      z.object({
        id: z.string(),
        productId: z.string(),
        productName: z.string(),
        rating: z.number().int(),
        comment: z.string(),
        authorName: z.string(),
        createdAt: isoDate,
      }),
    ),
    apps: z
      .array(z.object({ appId: z.string(), name: z.string(), scopes: z.array(z.string()) }))
      .describe("the installed apps that may hold these orders or reviews (each is told of the request)"),
    messages: z
      .array(
        z.object({
          kind: z.string(),
          to: z.string(),
          subject: z.string().nullable().describe("null until the message was rendered for sending"),
          status: z.enum(["QUEUED", "SENT", "FAILED", "SKIPPED"]),
          orderId: z.string().nullable(),
          createdAt: isoDate,
          sentAt: isoDate.nullable(),
        }),
      )
      .describe("the e-mails the shop sent them (contract 16), oldest first"),
  })
  .meta({ id: "ShopperExport" });

/** Contract 15: a recorded privacy request. */
export const PrivacyRequestRecord = z
  .object({
    id: z.string(),
    kind: z.enum(["EXPORT", "ERASE"]),
    email: z.string().describe("as matched: trimmed, lower case"),
    orders: z.array(z.string()).describe("ids of the shopper's orders (empty: nothing held)"),
    reviews: z.array(z.string()).describe("ids of the shopper's reviews"),
    appsNotified: z.number().int().describe("installations sent customer.data_request or customer.redact"),
    createdAt: isoDate,
    export: ShopperExport.optional().describe("EXPORT only"),
  })
  .meta({ id: "PrivacyRequest" });

/** An uploaded image (contract 20, decision 060). */
export const UploadedFile = z
  .object({
    id: z.string(),
    url: z
      .string()
      .describe(
        "on the storefront origin (STOREFRONT_URL), served with its content type, nosniff and an immutable cache",
      ),
    contentType: z.enum(["image/png", "image/jpeg", "image/webp", "image/gif"]),
    size: z.number().int().describe("bytes"),
    width: z.number().int(),
    height: z.number().int(),
  })
  .meta({ id: "UploadedFile" });

/** A multipart upload's one field: the image (PNG, JPEG, WebP or GIF by its content, at most 5 MB). */
export const FileUpload = z
  .object({
    file: z
      .custom<File>((v) => typeof File !== "undefined" && v instanceof File, {
        error: "attach an image file in the field `file` (multipart/form-data)",
      })
      .meta({
        type: "string",
        format: "binary",
        description: "PNG, JPEG, WebP or GIF (read from its content), at most 5 MB",
      }),
  })
  .meta({ id: "FileUpload" });

/** A merchant's answer to a shopper's review (contract 20, decision 060). */
export const ReviewReplyBody = z
  .object({
    body: z
      .string({ error: "must be a string" })
      .trim()
      .min(1, "must not be empty")
      .max(2000, "must be at most 2,000 characters"),
  })
  .strict()
  .meta({ id: "ReviewReplyBody" });
export const ReviewReplyRecord = z
  .object({ reviewId: z.string(), body: z.string(), createdAt: z.iso.datetime() })
  .meta({ id: "ReviewReplyRecord" });

/** Contract 17: one person of a business's staff, the owner included, or a pending invitation. */
export const StaffMember = z
  .object({
    id: z.string().describe("the account id (`acct_…`) of a member, the invitation's (`inv_…`) while INVITED"),
    email: z.string(),
    name: z.string().nullable().describe("null until the invitation is accepted"),
    owner: z
      .boolean()
      .describe("the account that registered the business: every permission, cannot be changed or removed"),
    permissions: z.array(z.enum(PERMISSIONS)),
    status: z.enum(["INVITED", "ACTIVE"]),
    lastSignInAt: isoDate.nullable(),
    expiresAt: isoDate.nullable().describe("when a pending invitation stops working (7 days); null for a member"),
  })
  .meta({ id: "StaffMember" });
export const StaffList = listOf(StaffMember, "StaffList");

/** Contract 17: one developer of an app, or a pending invitation. */
export const AppMember = z
  .object({
    id: z.string().describe("the account id of a member, the invitation's (`inv_…`) while INVITED"),
    email: z.string(),
    name: z.string().nullable(),
    role: z.enum(APP_ROLES),
    status: z.enum(["INVITED", "ACTIVE"]),
    expiresAt: isoDate.nullable(),
  })
  .meta({ id: "AppMember" });
export const AppMemberList = listOf(AppMember, "AppMemberList");

/** One path of a release's diff (contract 19). */
export const ReleaseDiffEntry = z
  .object({
    path: z.string().describe("the changed path of the configuration document, e.g. `manifest.blocks.0.name`"),
    op: z.enum(["added", "removed", "changed"]),
    before: z.unknown().optional(),
    after: z.unknown().optional(),
  })
  .meta({ id: "ReleaseDiffEntry" });

export const ReleaseCreated = z
  .object({
    version: z.number().int().describe("the release's number, 1, 2, 3… per app (with dryRun: the number it would get)"),
    diff: z.array(ReleaseDiffEntry).describe("what it changed from the release before it"),
    status: z
      .enum(["APPLIED", "IN_REVIEW"])
      .describe("APPLIED: in effect now; IN_REVIEW: an approved app's scopes or pricing changed, its update in review"),
    dryRun: z.boolean().optional().describe("true: nothing was applied"),
  })
  .meta({ id: "ReleaseCreated" });

export const AppRelease = z
  .object({
    version: z.number().int(),
    status: z.enum(["APPLIED", "IN_REVIEW"]),
    source: z
      .enum(["api", "portal"])
      .describe("api: a release or an edit through the JSON API; portal: an edit in the portal"),
    message: z.string().nullable(),
    restoredFrom: z.number().int().nullable().describe("the release it restored, if any"),
    diff: z.array(ReleaseDiffEntry),
    config: z.record(z.string(), z.unknown()).describe("the whole configuration document as it was"),
    createdAt: isoDate,
  })
  .meta({ id: "AppRelease" });
export const AppReleaseList = listOf(AppRelease, "AppReleaseList");
