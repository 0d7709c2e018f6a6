/**
 * "Insert an example": a valid block, script embed, floating widget, hook or admin page, put into
 * the right array of the manifest (created when missing) as a text edit that leaves the rest of
 * the document as the developer wrote it.
 */
import type { Tree } from "@lezer/common";
import { HOOK_POINTS } from "~/platform/shapes/manifest";
import { arrayElements, objectProperties, propertyName, propertyValue, rootValue } from "./json-paths";
import type { ExampleKind } from "./example-kinds";

export { EXAMPLE_LABELS, EXAMPLE_KINDS, type ExampleKind } from "./example-kinds";

const ARRAY_OF: Record<ExampleKind, "blocks" | "embeds" | "hooks" | "adminPages"> = {
  block: "blocks",
  script: "embeds",
  widget: "embeds",
  hook: "hooks",
  adminPage: "adminPages",
};

/** A key not used yet in the list: `example-block`, then `example-block-2`, ... */
function freeKey(base: string, used: unknown[]): string {
  for (let i = 1; ; i++) {
    const key = i === 1 ? base : `${base}-${i}`;
    if (!used.includes(key)) return key;
  }
}

/**
 * The example for `kind`, given the items already in its list (keys must be unique) and the origin
 * of the app's pages (`https://app.example`). Null when the list has no room for another (every hook
 * point taken).
 */
export function exampleFor(
  kind: ExampleKind,
  existing: Record<string, unknown>[],
  origin: string,
): Record<string, unknown> | null {
  switch (kind) {
    case "block": {
      const key = freeKey(
        "example-block",
        existing.map((b) => b.blockType),
      );
      return {
        blockType: key,
        name: "Example block",
        description: "Shown in the site builder's list of blocks",
        renderUrl: `${origin}/blocks/${key}`,
        settingsSchema: { type: "object", properties: { title: { type: "string", title: "Title" } } },
        defaultConfig: { title: "Hello" },
      };
    }
    case "script": {
      const key = freeKey(
        "example-script",
        existing.map((e) => e.embedType),
      );
      return {
        embedType: key,
        name: "Example script",
        kind: "GLOBAL_SCRIPT",
        position: "body_end",
        scriptUrl: `${origin}/embeds/${key}.js`,
      };
    }
    case "widget": {
      const key = freeKey(
        "example-widget",
        existing.map((e) => e.embedType),
      );
      return {
        embedType: key,
        name: "Example widget",
        kind: "FLOATING_WIDGET",
        position: "bottom_right",
        renderUrl: `${origin}/embeds/${key}`,
      };
    }
    case "hook": {
      const taken = existing.map((h) => h.hookPoint);
      const hookPoint = HOOK_POINTS.find((p) => !taken.includes(p));
      if (!hookPoint) return null;
      return { hookPoint, url: `/hooks/${hookPoint.replace(/[._]/g, "-")}`, timeout: 2000 };
    }
    case "adminPage": {
      const key = freeKey(
        "example-page",
        existing.map((a) => a.pageId),
      );
      return { pageId: key, title: "Example page", renderUrl: `${origin}/admin/${key}` };
    }
  }
}

/** JSON.stringify with 2 spaces, every line after the first indented by `indent`. */
const indented = (value: unknown, indent: string) => JSON.stringify(value, null, 2).replace(/\n/g, "\n" + indent);

const lineIndent = (text: string, pos: number) => /^[ \t]*/.exec(text.slice(text.lastIndexOf("\n", pos - 1) + 1))![0];

export type Insertion = { from: number; to: number; insert: string; select: { from: number; to: number } };
export type InsertResult = { ok: true; change: Insertion } | { ok: false; problem: string };

/**
 * The text edit that adds an example of `kind` to `text` (which must parse as a JSON object):
 * after the last item of its array, into the empty array, or as a new array before the object's
 * closing brace. `select` is where the example ends up, to show it.
 */
export function insertExample(tree: Tree, text: string, kind: ExampleKind, origin: string): InsertResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, problem: "Fix the JSON error first: the example goes into the manifest once it parses." };
  }
  const root = rootValue(tree);
  if (!root || root.name !== "Object" || typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    return { ok: false, problem: "The manifest must be a JSON object ({ … }) to take an example." };
  const arrayKey = ARRAY_OF[kind];
  const list = (parsed as Record<string, unknown>)[arrayKey];
  const existing = Array.isArray(list)
    ? list.filter((x): x is Record<string, unknown> => typeof x === "object" && x !== null)
    : [];
  const example = exampleFor(kind, existing, origin);
  if (!example)
    return { ok: false, problem: "Every hook point has a hook already: a manifest has at most one hook per point." };

  const property = objectProperties(root).find((p) => propertyName(p, text) === arrayKey);
  const value = property ? propertyValue(property) : null;
  const select = (at: number, lead: string, body: string) => ({
    from: at + lead.length,
    to: at + lead.length + body.length,
  });

  if (property && value && value.name === "Array") {
    const items = arrayElements(value);
    const base = lineIndent(text, property.from);
    const inner = base + "  ";
    if (items.length) {
      const last = items[items.length - 1];
      const itemIndent = lineIndent(text, last.from);
      const sameLine = !text.slice(value.from, last.from).includes("\n");
      const lead = sameLine ? ", " : ",\n" + itemIndent;
      const body = indented(example, sameLine ? base : itemIndent);
      return {
        ok: true,
        change: { from: last.to, to: last.to, insert: lead + body, select: select(last.to, lead, body) },
      };
    }
    // an empty array: [] or [ ] or [\n  ]
    const body = indented(example, inner);
    const lead = "\n" + inner;
    const at = value.from + 1;
    return {
      ok: true,
      change: { from: at, to: value.to - 1, insert: lead + body + "\n" + base, select: select(at, lead, body) },
    };
  }
  if (property && value) {
    // "blocks": null (or another non-array): replace the value with a list holding the example
    const base = lineIndent(text, property.from);
    const inner = base + "  ";
    const body = indented(example, inner);
    const lead = "[\n" + inner;
    return {
      ok: true,
      change: {
        from: value.from,
        to: value.to,
        insert: lead + body + "\n" + base + "]",
        select: select(value.from, lead, body),
      },
    };
  }
  // no such array yet: a new property at the end of the root object
  const properties = objectProperties(root);
  const close = root.lastChild!;
  if (properties.length) {
    const last = properties[properties.length - 1];
    const indent = lineIndent(text, last.from) || "  ";
    const multiline = text.slice(root.from, last.from).includes("\n");
    const keyIndent = multiline ? indent : "";
    const lead = (multiline ? ",\n" + keyIndent : ", ") + JSON.stringify(arrayKey) + ": [\n" + keyIndent + "  ";
    const body = indented(example, keyIndent + "  ");
    return {
      ok: true,
      change: {
        from: last.to,
        to: last.to,
        insert: lead + body + "\n" + keyIndent + "]",
        select: select(last.to, lead, body),
      },
    };
  }
  const lead = "\n  " + JSON.stringify(arrayKey) + ": [\n    ";
  const body = indented(example, "    ");
  const at = root.from + 1;
  return {
    ok: true,
    change: { from: at, to: close.from, insert: lead + body + "\n  ]\n", select: select(at, lead, body) },
  };
}
