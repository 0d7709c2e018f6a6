/**
 * What installed apps add to a business: blocks for the site builder, embeds for the storefront,
 * admin pages for the sidebar, the app's settings (contract 4 and 10). Every function takes the
 * business first and never reaches another business's installations.
 */
import type { Member } from "../accounts/permissions";
import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Database, Db } from "../../../db/client";
import {
  embedSettings,
  installations,
  pages,
  type Business,
  type PageBlock,
  type WidgetPlacement,
} from "../../../db/schema";
import { MAX_WIDGET_OFFSET, placementOf } from "./placement";
import type { Env } from "../core/env.server";
import { ApiError, parseWith } from "../core/http.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { decrypt, signJwt } from "../core/crypto.server";
import { activeExtensions } from "./registry.server";
import { settingsAjv, type BlockDef, type EmbedDef, type AdminPageDef, type Manifest } from "../shapes/manifest";

const ajv = settingsAjv();
const compiled = new Map<string, ReturnType<typeof ajv.compile>>();

/** Validates settings against a settings schema (400 naming the problem); no schema accepts an object. */
export function validateSettings(
  schema: Record<string, unknown> | undefined,
  settings: unknown,
  label: string,
): Record<string, unknown> {
  if (typeof settings !== "object" || settings === null || Array.isArray(settings))
    throw new ApiError(400, `${label}: must be an object`);
  if (!schema) return settings as Record<string, unknown>;
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  if (!validate(settings))
    throw new ApiError(400, `${label}: ${ajv.errorsText(validate.errors, { dataVar: "settings" })}`);
  return settings as Record<string, unknown>;
}

/**
 * An extension's definition with the app it comes from (`appId`, then the app's fields the caller
 * needs) and the installation that brings it to the business.
 */
function fromInstalledApp<D, F extends object>(
  definition: D,
  r: { app: { id: string }; installation: { id: string } },
  appFields: F,
): D & { appId: string } & F & { installationId: string } {
  return { ...definition, appId: r.app.id, ...appFields, installationId: r.installation.id };
}

export type AvailableBlock = BlockDef & { appId: string; appName: string; installationId: string };

export async function availableBlocks(db: Db, businessId: string): Promise<AvailableBlock[]> {
  const rows = await activeExtensions(db, businessId, "block");
  return rows.map((r) => fromInstalledApp(r.extension.definition as unknown as BlockDef, r, { appName: r.app.name }));
}

export type StorefrontEmbed = EmbedDef & {
  appId: string;
  appSlug: string;
  appIconUrl: string | null;
  installationId: string;
  enabled: boolean;
  settings: Record<string, unknown>;
  /** a FLOATING_WIDGET's place (the merchant's, else the manifest's corner); null for a script */
  placement: WidgetPlacement | null;
};

/** Embeds of active installations with the merchant's switch and settings (enabled by default). */
export async function businessEmbeds(db: Db, businessId: string): Promise<StorefrontEmbed[]> {
  const rows = await activeExtensions(db, businessId, "embed");
  if (rows.length === 0) return [];
  const all = await db
    .select()
    .from(embedSettings)
    .where(inArray(embedSettings.installationId, [...new Set(rows.map((r) => r.installation.id))]));
  return rows.map((r) => {
    const def = r.extension.definition as unknown as EmbedDef;
    const state = all.find((s) => s.installationId === r.installation.id && s.embedType === def.embedType);
    return {
      ...fromInstalledApp(def, r, { appSlug: r.app.slug, appIconUrl: r.app.iconUrl }),
      enabled: state?.enabled ?? true,
      settings: state?.settings ?? def.defaultConfig ?? {},
      placement: placementOf(def, state?.placement),
    };
  });
}

export type AdminPageEntry = AdminPageDef & {
  appId: string;
  appName: string;
  appIconUrl: string | null;
  installationId: string;
};

export async function businessAdminPages(db: Db, businessId: string): Promise<AdminPageEntry[]> {
  const rows = await activeExtensions(db, businessId, "adminPage");
  return rows.map((r) =>
    fromInstalledApp(r.extension.definition as unknown as AdminPageDef, r, {
      appName: r.app.name,
      appIconUrl: r.app.iconUrl,
    }),
  );
}

async function activeInstallation(db: Db, businessId: string, installationId: string) {
  const [row] = await db
    .select()
    .from(installations)
    .where(and(eq(installations.id, installationId), eq(installations.businessId, businessId)));
  if (!row) throw new ApiError(404, "Installation not found");
  if (row.status !== "ACTIVE") throw new ApiError(409, "The app is uninstalled");
  return row;
}

export const widgetPlacementSchema = z
  .object({
    corner: z.enum(["bottom_right", "bottom_left"]),
    offset: z
      .number()
      .int("must be a whole number of pixels")
      .min(0, "must be 0 or more")
      .max(MAX_WIDGET_OFFSET, `must be at most ${MAX_WIDGET_OFFSET} px`)
      .describe("how far above the bottom edge, in CSS pixels"),
    showOnPhones: z.boolean().describe("false: hidden on screens up to 640 px wide"),
  })
  .strict()
  .meta({ id: "WidgetPlacement" });

export const embedUpdateSchema = z
  .object({
    enabled: z.boolean(),
    settings: z.record(z.string(), z.unknown()).optional(),
    /** a FLOATING_WIDGET's corner, offset and phones (decision 061); absent: unchanged */
    placement: widgetPlacementSchema.optional(),
  })
  .strict();

/** The merchant's switch and settings of one embed. */
export async function setEmbed(db: Db, businessId: string, installationId: string, embedType: string, body: unknown) {
  const input = parseWith(embedUpdateSchema, body);
  const installation = await activeInstallation(db, businessId, installationId);
  const embed = (await activeExtensions(db, businessId, "embed")).find(
    (r) => r.installation.id === installation.id && r.extension.key === embedType,
  );
  if (!embed) throw new ApiError(404, `The app has no active embed ${embedType}`);
  const def = embed.extension.definition as unknown as EmbedDef;
  const settings =
    input.settings === undefined ? undefined : validateSettings(def.settingsSchema, input.settings, "settings");
  if (input.placement && def.kind !== "FLOATING_WIDGET")
    throw new ApiError(400, "placement: only a floating widget has a corner and an offset");
  const placement = input.placement;
  const t = now();
  await db
    .insert(embedSettings)
    .values({
      installationId,
      embedType,
      enabled: input.enabled,
      settings: settings ?? null,
      placement: placement ?? null,
      updatedAt: t,
    })
    .onConflictDoUpdate({
      target: [embedSettings.installationId, embedSettings.embedType],
      set: {
        enabled: input.enabled,
        ...(settings ? { settings } : {}),
        ...(placement ? { placement } : {}),
        updatedAt: t,
      },
    });
  const [state] = await db
    .select()
    .from(embedSettings)
    .where(and(eq(embedSettings.installationId, installationId), eq(embedSettings.embedType, embedType)));
  return {
    installationId,
    embedType,
    enabled: state.enabled,
    settings: state.settings ?? def.defaultConfig ?? {},
    placement: placementOf(def, state.placement),
  };
}

/** The app's global settings, validated against the manifest's settingsSchema. */
export async function setAppSettings(
  db: Database,
  businessId: string,
  installationId: string,
  settings: unknown,
  manifest: Manifest | null,
) {
  await activeInstallation(db, businessId, installationId);
  const valid = validateSettings(manifest?.settingsSchema, settings, "settings");
  await db.update(installations).set({ settings: valid }).where(eq(installations.id, installationId));
  return { installationId, settings: valid };
}

// ---- site pages ----

export const BUILTIN_BLOCKS = {
  heading: z.object({ text: z.string().max(200) }).strict(),
  text: z.object({ text: z.string().max(5000) }).strict(),
  image: z
    .object({
      url: z
        .string()
        .max(2000)
        .refine(
          (v) => (v.startsWith("/") && !v.startsWith("//")) || /^https?:\/\//.test(v),
          "must be a relative path or an http(s) URL",
        ),
      alt: z.string().max(300).default(""),
    })
    .strict(),
  "product-grid": z.object({ limit: z.number().int().min(1).max(48).default(8) }).strict(),
} as const;

const blockInput = z.object({
  id: z.string().max(64).optional(),
  kind: z.enum(["builtin", "app"]),
  type: z.string().min(1).max(64),
  appId: z.string().max(64).optional(),
  settings: z.record(z.string(), z.unknown()).default({}),
});

export const pageInputSchema = z.object({
  title: z.string().trim().min(1, "is required").max(120),
  isPublished: z.boolean(),
  blocks: z.array(blockInput).max(100, "at most 100 blocks"),
});

export const PAGE_SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Creates or replaces a page. An app block must name an active block of an app installed here. */
export async function savePage(
  db: Database,
  businessId: string,
  slug: string,
  body: unknown,
  options: { createOnly?: boolean } = {},
) {
  if (!PAGE_SLUG.test(slug) || slug.length > 60)
    throw new ApiError(400, "slug: must be lowercase letters, digits and hyphens (at most 60)");
  const input = parseWith(pageInputSchema, body);
  const blocks = await availableBlocks(db, businessId);
  const [existing] = await db
    .select()
    .from(pages)
    .where(and(eq(pages.businessId, businessId), eq(pages.slug, slug)));
  const kept = new Map((existing?.blocks ?? []).map((b) => [b.id, b]));
  const stored: PageBlock[] = input.blocks.map((b, i) => {
    const id = b.id && /^[A-Za-z0-9_-]+$/.test(b.id) ? b.id : newId("blk", 12);
    if (b.kind === "builtin") {
      const schema = BUILTIN_BLOCKS[b.type as keyof typeof BUILTIN_BLOCKS];
      if (!schema)
        throw new ApiError(
          400,
          `blocks[${i}].type: unknown built-in block ${b.type} (use ${Object.keys(BUILTIN_BLOCKS).join(", ")})`,
        );
      const parsed = schema.safeParse(b.settings);
      if (!parsed.success)
        throw new ApiError(
          400,
          `blocks[${i}].settings: ${parsed.error.issues[0].path.join(".")} ${parsed.error.issues[0].message}`,
        );
      return { id, kind: "builtin", type: b.type, settings: parsed.data };
    }
    const def = blocks.find((x) => x.appId === b.appId && x.blockType === b.type);
    if (!def) {
      // a block whose extension was deactivated stays stored, unchanged, until it comes back
      const before = kept.get(id);
      if (before && before.kind === "app" && before.appId === b.appId && before.type === b.type) return before;
      throw new ApiError(
        400,
        `blocks[${i}]: ${b.appId ?? "(no appId)"} has no active ${b.type} block installed on this business`,
      );
    }
    return {
      id,
      kind: "app",
      type: b.type,
      appId: b.appId,
      settings: validateSettings(def.settingsSchema, b.settings, `blocks[${i}].settings`),
    };
  });
  const t = now();
  const insert = db.insert(pages).values({
    id: newId("pg"),
    businessId,
    slug,
    title: input.title,
    isPublished: input.isPublished,
    blocks: stored,
    createdAt: t,
    updatedAt: t,
  });
  if (options.createOnly) {
    // "New page": of two creations of one address at once, one creates it and the other is told it exists
    const [row] = await insert.onConflictDoNothing({ target: [pages.businessId, pages.slug] }).returning();
    if (!row) throw new ApiError(409, `A page /${slug} exists already.`);
    return row;
  }
  // PUT creates or replaces, in one statement: two saves of a new slug at once both succeed, the
  // later one's content stays (pages_business_slug_key), never a unique violation
  const [row] = await insert
    .onConflictDoUpdate({
      target: [pages.businessId, pages.slug],
      set: { title: input.title, isPublished: input.isPublished, blocks: stored, updatedAt: t },
    })
    .returning();
  return row;
}

/** The page's blocks as rendered: app blocks only while their extension is active. */
export async function renderableBlocks(db: Db, business: Pick<Business, "id">, blocks: PageBlock[]) {
  const available = await availableBlocks(db, business.id);
  return blocks.flatMap((b): (PageBlock & { def: AvailableBlock | null })[] => {
    if (b.kind === "builtin") return [{ ...b, def: null }];
    const def = available.find((x) => x.appId === b.appId && x.blockType === b.type);
    return def ? [{ ...b, def }] : [];
  });
}

// ---- admin page session tokens ----

/** Who looks at an app's admin page or edits its block (contract 17): the member, by account. */
export type SessionPerson = Pick<Member, "accountId" | "owner" | "permissions"> & { name: string };

/**
 * JWT signed with the app's client secret: HS256, 60 s, aud = clientId, sub = account, businessId
 * claim (contract 10), and the person's `owner` and `permissions` (contract 17) and `name`
 * (decision 070), so that an app can act for the person and hide what they may not do.
 */
export async function adminSessionToken(
  env: Env,
  app: { clientId: string; clientSecretEnc: string | null },
  person: SessionPerson,
  businessId: string,
): Promise<string | null> {
  if (!app.clientSecretEnc) return null;
  const secret = decrypt(app.clientSecretEnc, env.encryptionKey);
  return signJwt(
    {
      iss: env.publicUrl,
      aud: app.clientId,
      sub: person.accountId,
      businessId,
      owner: person.owner,
      permissions: person.permissions,
      name: person.name,
    },
    secret,
    60,
    Math.floor(now().getTime() / 1000),
  );
}
