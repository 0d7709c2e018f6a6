/** What the builder shows of a block on the page: its definition, name, settings schema and one-line summary. */
import { BUILTIN_BLOCK_TYPES } from "~/platform/extensions/builtin-blocks";
import type { AvailableBlock, Block } from "./state";

export type BlockInfo = {
  /** The app block's definition; undefined for a built-in block, or an app block no longer available. */
  def: AvailableBlock | undefined;
  name: string;
  schema: Record<string, unknown> | null;
  summary: string;
};

export function blockInfo(b: Block, available: AvailableBlock[]): BlockInfo {
  const def = b.kind === "app" ? available.find((a) => a.appId === b.appId && a.blockType === b.type) : undefined;
  const builtin = b.kind === "builtin" ? BUILTIN_BLOCK_TYPES.find((x) => x.type === b.type) : undefined;
  const schema = (def ? def.settingsSchema : builtin ? builtin.schema : null) as Record<string, unknown> | null;
  return { def, name: def?.name ?? builtin?.name ?? `${b.type} (unavailable)`, schema, summary: summary(b, def) };
}

/** One line under a block's name: what it shows. */
function summary(b: Block, def: AvailableBlock | undefined): string {
  const s = b.settings ?? {};
  const text = (v: unknown) => (typeof v === "string" ? (v.length > 60 ? v.slice(0, 57) + "…" : v) : "");
  if (b.kind === "app") return def ? `from ${def.appName}` : "app not installed";
  if (b.type === "heading" || b.type === "text") return text(s.text) || "(empty)";
  if (b.type === "image") return text(s.alt) || text(s.url) || "(no address)";
  if (b.type === "product-grid") return `${typeof s.limit === "number" ? s.limit : 8} newest products`;
  return "";
}
