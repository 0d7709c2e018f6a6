/**
 * The manifest's JSON Schema (contract 9), checked with ajv, plus the rules a schema cannot say
 * (uniqueness, settings schemas that compile, defaults that validate, size).
 */
import { appUrlProblem } from "../core/urls";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";

export const HOOK_POINTS = [
  "checkout.payment_methods",
  "checkout.create_payment",
  "checkout.shipping_rates",
  "order.validate",
  "order.calculate_discounts",
] as const;
export type HookPoint = (typeof HOOK_POINTS)[number];
export const HOOK_SCOPES: Record<HookPoint, string> = {
  "checkout.payment_methods": "write_payments",
  "checkout.create_payment": "write_payments",
  "checkout.shipping_rates": "write_shipping",
  "order.validate": "write_checkout",
  "order.calculate_discounts": "write_checkout",
};

export const MAX_MANIFEST_BYTES = 64 * 1024;
const KEY = "^[a-z0-9][a-z0-9_-]{0,63}$";
const httpUrl = { type: "string", maxLength: 2000, pattern: "^https?://[^\\s]+$" };
const text = (max: number) => ({ type: "string", minLength: 1, maxLength: max });
/** A list of at most `max` entries, each an object of exactly these properties (`rules`: its if/then rules). */
const listOf = <P, R extends readonly string[]>(
  max: number,
  required: R,
  properties: P,
  rules?: readonly object[],
) => ({
  type: "array",
  maxItems: max,
  items: { type: "object", additionalProperties: false, required, properties, ...(rules ? { allOf: rules } : {}) },
});

export const manifestJsonSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    settingsSchema: { type: "object" },
    blocks: listOf(20, ["blockType", "name", "renderUrl"] as const, {
      blockType: { type: "string", pattern: KEY },
      name: text(100),
      description: { type: "string", maxLength: 500 },
      iconName: { type: "string", maxLength: 64 },
      category: { type: "string", maxLength: 64 },
      renderUrl: httpUrl,
      settingsSchema: { type: "object" },
      defaultConfig: { type: "object" },
    }),
    embeds: listOf(
      10,
      ["embedType", "name", "kind", "position"] as const,
      {
        embedType: { type: "string", pattern: KEY },
        name: text(100),
        description: { type: "string", maxLength: 500 },
        kind: { enum: ["GLOBAL_SCRIPT", "FLOATING_WIDGET"] },
        position: { enum: ["head", "body_end", "bottom_right", "bottom_left"] },
        scriptUrl: httpUrl,
        renderUrl: httpUrl,
        settingsSchema: { type: "object" },
        defaultConfig: { type: "object" },
      },
      [
        {
          if: { properties: { kind: { const: "GLOBAL_SCRIPT" } } },
          then: {
            required: ["scriptUrl"],
            properties: { scriptUrl: httpUrl, position: { enum: ["head", "body_end"] } },
          },
        },
        {
          if: { properties: { kind: { const: "FLOATING_WIDGET" } } },
          then: {
            required: ["renderUrl"],
            properties: { renderUrl: httpUrl, position: { enum: ["bottom_right", "bottom_left"] } },
          },
        },
      ],
    ),
    hooks: listOf(5, ["hookPoint", "url"] as const, {
      hookPoint: { enum: [...HOOK_POINTS] },
      url: { type: "string", pattern: "^/[^\\s]*$", maxLength: 500 },
      timeout: { type: "integer", minimum: 100, maximum: 10000 },
      priority: { type: "integer", minimum: 0, maximum: 1000 },
    }),
    adminPages: listOf(10, ["pageId", "title", "renderUrl"] as const, {
      pageId: { type: "string", pattern: KEY },
      title: text(60),
      iconName: { type: "string", maxLength: 64 },
      renderUrl: httpUrl,
    }),
  },
} as const;

export type BlockDef = {
  blockType: string;
  name: string;
  description?: string;
  iconName?: string;
  category?: string;
  renderUrl: string;
  settingsSchema?: Record<string, unknown>;
  defaultConfig?: Record<string, unknown>;
};
export type EmbedDef = {
  embedType: string;
  name: string;
  description?: string;
  kind: "GLOBAL_SCRIPT" | "FLOATING_WIDGET";
  position: "head" | "body_end" | "bottom_right" | "bottom_left";
  scriptUrl?: string;
  renderUrl?: string;
  settingsSchema?: Record<string, unknown>;
  defaultConfig?: Record<string, unknown>;
};
export type HookDef = { hookPoint: HookPoint; url: string; timeout?: number; priority?: number };
export type AdminPageDef = { pageId: string; title: string; iconName?: string; renderUrl: string };
export type Manifest = {
  settingsSchema?: Record<string, unknown>;
  blocks?: BlockDef[];
  embeds?: EmbedDef[];
  hooks?: HookDef[];
  adminPages?: AdminPageDef[];
};

/** An ajv for settings schemas: the formats of the spec (color, date-time, uri) are known. */
export function settingsAjv() {
  const ajv = new Ajv2020({ strict: false, allErrors: true, useDefaults: false });
  addFormats(ajv);
  ajv.addFormat("color", /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/);
  return ajv;
}

// Compiled on first use, not on import: pages import this module for its constants, and ajv compiles
// with `new Function`, which the pages' Content-Security-Policy does not allow (page-csp.server.ts).
let compiledStructural: ReturnType<Ajv2020["compile"]> | null = null;
const structuralValidator = () =>
  (compiledStructural ??= new Ajv2020({ strict: false, allErrors: true }).compile(manifestJsonSchema));

function fieldOf(instancePath: string, manifest: unknown, params: Record<string, unknown>): string {
  // /blocks/0/renderUrl -> blocks[0].renderUrl
  let path = instancePath
    .replace(/^\//, "")
    .replace(/\/(\d+)/g, "[$1]")
    .replace(/\//g, ".");
  if (params.missingProperty) path = path ? `${path}.${params.missingProperty}` : String(params.missingProperty);
  if (params.additionalProperty)
    path = path ? `${path}.${params.additionalProperty}` : String(params.additionalProperty);
  void manifest;
  return path || "manifest";
}

/** Returns the problems of a manifest, each naming its field; an empty list means valid. */
export function validateManifest(manifest: unknown): string[] {
  const size = Buffer.byteLength(JSON.stringify(manifest ?? null));
  if (size > MAX_MANIFEST_BYTES) return [`manifest: ${size} bytes exceeds ${MAX_MANIFEST_BYTES} bytes`];
  const structural = structuralValidator();
  if (!structural(manifest)) {
    const errors = (structural.errors ?? []).filter((e) => e.keyword !== "if");
    return [
      ...new Set(
        errors.map(
          (e) =>
            `${fieldOf(e.instancePath, manifest, e.params as Record<string, unknown>)}: ${e.keyword === "additionalProperties" ? "is not allowed" : e.keyword === "enum" ? `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(", ")}` : e.message}`,
        ),
      ),
    ].slice(0, 10);
  }
  const m = manifest as Manifest;
  const problems: string[] = [];
  const unique = (list: { [k: string]: unknown }[] | undefined, key: string, label: string) => {
    const seen = new Set<unknown>();
    list?.forEach((item, i) => {
      if (seen.has(item[key])) problems.push(`${label}[${i}].${key}: "${item[key]}" is used twice`);
      seen.add(item[key]);
    });
  };
  unique(m.blocks, "blockType", "blocks");
  unique(m.embeds, "embedType", "embeds");
  unique(m.hooks, "hookPoint", "hooks");
  unique(m.adminPages, "pageId", "adminPages");
  // every URL the app supplies: absolute http(s), no credentials, a plain host (core/urls.ts)
  const checkUrl = (value: string | undefined, field: string) => {
    const problem = value === undefined ? null : appUrlProblem(value);
    if (problem) problems.push(`${field}: ${problem}`);
  };
  m.blocks?.forEach((b, i) => checkUrl(b.renderUrl, `blocks[${i}].renderUrl`));
  m.embeds?.forEach((e, i) => {
    checkUrl(e.scriptUrl, `embeds[${i}].scriptUrl`);
    checkUrl(e.renderUrl, `embeds[${i}].renderUrl`);
  });
  m.adminPages?.forEach((a, i) => checkUrl(a.renderUrl, `adminPages[${i}].renderUrl`));
  const ajv = settingsAjv();
  const checkSettings = (
    schema: Record<string, unknown> | undefined,
    defaults: Record<string, unknown> | undefined,
    field: string,
  ) => {
    if (!schema) return;
    let validate;
    try {
      validate = ajv.compile(schema);
    } catch (e) {
      problems.push(`${field}.settingsSchema: does not compile (${(e as Error).message})`);
      return;
    }
    if (defaults !== undefined && !validate(defaults))
      problems.push(`${field}.defaultConfig: does not match settingsSchema (${ajv.errorsText(validate.errors)})`);
  };
  checkSettings(m.settingsSchema, undefined, "manifest");
  m.blocks?.forEach((b, i) => checkSettings(b.settingsSchema, b.defaultConfig, `blocks[${i}]`));
  m.embeds?.forEach((e, i) => checkSettings(e.settingsSchema, e.defaultConfig, `embeds[${i}]`));
  return problems;
}
