/**
 * A page's blocks as the storefront renders them, shared by the server (storefront pages) and the
 * browser (the site builder's live preview renders the unsaved draft with the same rules). Pure
 * functions only: no database, nothing server-only.
 */
import type { PageBlock } from "../db/schema/catalog";

/** Only "/"-relative paths and http(s) URLs may become an <img src> or a link; anything else is "". */
export function safeUrl(value: unknown, options: { relative?: boolean } = { relative: true }): string {
  if (typeof value !== "string") return "";
  const v = value.trim();
  if (v.length === 0 || v.length > 2000 || /[\s\u0000-\u001f\\]/.test(v)) return "";
  if (options.relative !== false && v.startsWith("/") && !v.startsWith("//")) return v;
  try {
    const url = new URL(v);
    if ((url.protocol === "http:" || url.protocol === "https:") && /^https?:\/\//i.test(v)) return url.href;
  } catch {
    return "";
  }
  return "";
}

/** Only http(s) URLs (payment links, app icons). */
export const httpUrl = (value: unknown) => safeUrl(value, { relative: false });

export type PublicBlock =
  | { id: string; kind: "builtin"; type: "heading"; text: string }
  | { id: string; kind: "builtin"; type: "text"; text: string }
  | { id: string; kind: "builtin"; type: "image"; url: string; alt: string }
  | { id: string; kind: "builtin"; type: "product-grid"; limit: number }
  | {
      id: string;
      kind: "app";
      type: string;
      appId: string;
      name: string;
      renderUrl: string;
      settings: Record<string, unknown>;
    };

/** What the storefront needs to know of an installed app's block extension. */
export type BlockDefinition = { appId: string; blockType: string; name: string; renderUrl: string };

const str = (v: unknown, max = 5000) => (typeof v === "string" ? v.slice(0, max) : "");

/**
 * One block as the storefront renders it, with only the settings it needs; null when the storefront
 * shows nothing for it (an unknown type, an image without a usable address, an app block whose app
 * is not installed or whose extension is inactive).
 */
export function publicBlock(b: PageBlock, appBlocks: BlockDefinition[] = []): PublicBlock | null {
  if (!b || typeof b !== "object" || typeof b.id !== "string" || typeof b.type !== "string") return null;
  const s = (b.settings && typeof b.settings === "object" && !Array.isArray(b.settings) ? b.settings : {}) as Record<
    string,
    unknown
  >;
  if (b.kind === "app") {
    // only while the app is installed and the block extension active
    const def = appBlocks.find((a) => a.appId === b.appId && a.blockType === b.type);
    return def
      ? { id: b.id, kind: "app", type: b.type, appId: def.appId, name: def.name, renderUrl: def.renderUrl, settings: s }
      : null;
  }
  if (b.kind !== "builtin") return null;
  if (b.type === "heading") return { id: b.id, kind: "builtin", type: "heading", text: str(s.text, 300) };
  if (b.type === "text") return { id: b.id, kind: "builtin", type: "text", text: str(s.text) };
  if (b.type === "image") {
    const url = safeUrl(s.url);
    return url ? { id: b.id, kind: "builtin", type: "image", url, alt: str(s.alt, 300) } : null;
  }
  if (b.type === "product-grid") {
    const limit =
      typeof s.limit === "number" && Number.isFinite(s.limit) ? Math.min(48, Math.max(1, Math.floor(s.limit))) : 8;
    return { id: b.id, kind: "builtin", type: "product-grid", limit };
  }
  return null;
}

/** The blocks the storefront knows how to render, with only the settings they need. */
export function publicBlocks(blocks: PageBlock[], appBlocks: BlockDefinition[] = []): PublicBlock[] {
  return (Array.isArray(blocks) ? blocks : []).flatMap((b) => {
    const out = publicBlock(b, appBlocks);
    return out ? [out] : [];
  });
}
