/**
 * Paths in a JSON document, read from the error-tolerant syntax tree of @codemirror/lang-json
 * (@lezer/json: JsonText > Object > Property > PropertyName ":" value, Array > value ...).
 *
 * - `contextAt`: what the cursor is in (a key being typed in an object, or a value), and the JSON
 *   path of that object or value, for the manifest editor's completion;
 * - `locatePointer`: where a JSON pointer (`/blocks/0/renderUrl`) is in the text, for the server's
 *   errors to be shown at their line;
 * - `fieldToPointer` / `splitServerMessage`: the server names fields as `blocks[0].renderUrl`
 *   (manifest-schema.ts `validateManifest`); these turn that into a pointer;
 * - `partialValue`: the values the document holds so far, even while it does not parse.
 *
 * Pure functions of (tree, text): shared by the browser (the editor) and the server (the lint route).
 */
import type { SyntaxNode, Tree } from "@lezer/common";

export type JsonPath = (string | number)[];

const VALUE_NODES = new Set(["Object", "Array", "String", "Number", "True", "False", "Null"]);
const isValue = (node: SyntaxNode | null): node is SyntaxNode => !!node && VALUE_NODES.has(node.name);

function children(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) out.push(child);
  return out;
}

/** The elements of an Array node, in order (brackets, commas and error nodes left out). */
export const arrayElements = (array: SyntaxNode) => children(array).filter(isValue);

/** The Property nodes of an Object node, in order. */
export const objectProperties = (object: SyntaxNode) => children(object).filter((c) => c.name === "Property");

/** A Property's name (the JSON string decoded), or null when it is not a complete string. */
export function propertyName(property: SyntaxNode, text: string): string | null {
  const name = property.getChild("PropertyName");
  if (!name) return null;
  try {
    const value: unknown = JSON.parse(text.slice(name.from, name.to));
    return typeof value === "string" ? value : null;
  } catch {
    return null;
  }
}

/** A Property's value node, or null while it has none (`"kind": ` being typed). */
export function propertyValue(property: SyntaxNode): SyntaxNode | null {
  let afterColon = false;
  for (const child of children(property)) {
    if (child.name === ":") afterColon = true;
    else if (afterColon && isValue(child)) return child;
  }
  return null;
}

/** The document's top value (normally the manifest's Object). */
export function rootValue(tree: Tree): SyntaxNode | null {
  const first = tree.topNode.firstChild;
  return isValue(first) ? first : null;
}

/** The path of a value node from the root: ["blocks", 0, "renderUrl"]. */
export function pathOfNode(node: SyntaxNode, text: string): JsonPath {
  const path: JsonPath = [];
  let current: SyntaxNode = node;
  for (;;) {
    const parent = current.parent;
    if (!parent) return path;
    if (parent.name === "Property") {
      path.unshift(propertyName(parent, text) ?? "");
      current = parent.parent ?? parent;
      if (current === parent) return path;
    } else if (parent.name === "Array") {
      path.unshift(arrayElements(parent).findIndex((e) => e.from === current.from && e.to === current.to));
      current = parent;
    } else if (parent.name === "Object") {
      current = parent; // a value directly in an object is an error node's neighbour; keep climbing
    } else return path;
  }
}

/** What the completion is for: a key typed in the object at `path`, or the value at `path`. */
export type CursorContext =
  | { kind: "key"; path: JsonPath; from: number; to: number; quoted: boolean; typed: string; existing: string[] }
  | { kind: "value"; path: JsonPath; from: number; to: number; quoted: boolean; typed: string };

const COMPLETE_STRING = /^"(?:[^"\\\n]|\\.)*"$/;
const WORD = /[\w$.-]/;

/**
 * The completion context at `pos`. The token being typed is a string (`"bl`, `"bl"` with its
 * closing quote added by the editor, an unterminated one) or a bare word (`bl`); `from`/`to` span
 * all of it, quotes included. Answers null where neither a key nor a value can go (after a complete
 * value, outside the root).
 */
export function contextAt(tree: Tree, text: string, pos: number): CursorContext | null {
  let from = pos;
  let to = pos;
  let quoted = false;
  const inner = tree.resolveInner(pos, -1);
  const stringLike =
    inner.name === "String" || inner.name === "PropertyName" || (inner.type.isError && text[inner.from] === '"');
  if (stringLike && inner.from < pos && (pos < inner.to || !COMPLETE_STRING.test(text.slice(inner.from, inner.to)))) {
    from = inner.from;
    to = inner.to;
    quoted = true;
  } else {
    while (from > 0 && WORD.test(text[from - 1])) from--;
    while (to < text.length && WORD.test(text[to])) to++;
  }
  const typed = text.slice(quoted ? from + 1 : from, pos);

  // the innermost object or array whose brackets enclose the token
  let container: SyntaxNode | null = inner;
  while (container) {
    if (container.name === "Object" || container.name === "Array") {
      const open = container.firstChild;
      const close = container.lastChild;
      const closed = !!close && close !== open && (close.name === "}" || close.name === "]");
      if (open && open.to <= from && (!closed || close!.from >= to)) break;
    }
    container = container.parent;
  }
  if (!container) return null;

  let before = from - 1;
  while (before >= container.from && /\s/.test(text[before])) before--;
  const previous = text[before];
  const containerPath = pathOfNode(container, text);

  if (container.name === "Object") {
    if (previous === "{" || previous === ",") {
      const existing = keysInObject(text, container.from, container.to, from);
      return { kind: "key", path: containerPath, from, to, quoted, typed, existing };
    }
    if (previous === ":") {
      const property = objectProperties(container).find((p) => p.from < before && p.to >= before + 1);
      const name = property ? propertyName(property, text) : null;
      if (name === null) return null;
      return { kind: "value", path: [...containerPath, name], from, to, quoted, typed };
    }
    return null;
  }
  if (previous === "[" || previous === ",") {
    const index = arrayElements(container).filter((e) => e.to <= from).length;
    return { kind: "value", path: [...containerPath, index], from, to, quoted, typed };
  }
  return null;
}

/**
 * The keys written directly in the object spanning [from, to), but not the one starting at `skip`
 * (the key being typed). Read from the text rather than the tree: while a key is half typed, the
 * parser's recovery can swallow the property after it, and that key must still count as written.
 */
export function keysInObject(text: string, from: number, to: number, skip: number): string[] {
  const keys: string[] = [];
  let depth = 0;
  for (let i = from; i < to; i++) {
    const c = text[i];
    if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    else if (c === '"') {
      let end = i + 1;
      while (end < to && text[end] !== '"' && text[end] !== "\n") end += text[end] === "\\" ? 2 : 1;
      if (depth === 1 && i !== skip && text[end] === '"') {
        let next = end + 1;
        while (next < to && /\s/.test(text[next])) next++;
        if (text[next] === ":") {
          try {
            keys.push(JSON.parse(text.slice(i, end + 1)) as string);
          } catch {
            // an invalid escape: not a key anyone can mean
          }
        }
      }
      i = end;
    }
  }
  return keys;
}

/** The values the document holds so far, read from the tree: what cannot be read is left out. */
export function partialValue(node: SyntaxNode | null, text: string): unknown {
  if (!node) return undefined;
  switch (node.name) {
    case "Object": {
      const out: Record<string, unknown> = {};
      for (const property of objectProperties(node)) {
        const name = propertyName(property, text);
        const value = propertyValue(property);
        if (name !== null && value) out[name] = partialValue(value, text);
      }
      return out;
    }
    case "Array":
      return arrayElements(node).map((e) => partialValue(e, text));
    default:
      try {
        return JSON.parse(text.slice(node.from, node.to));
      } catch {
        return undefined;
      }
  }
}

/** RFC 6901: "/blocks/0/renderUrl" -> ["blocks", "0", "renderUrl"]. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === "" || pointer === "/") return [];
  return pointer
    .replace(/^\//, "")
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

export const segmentsToPointer = (segments: (string | number)[]) =>
  segments.map((s) => "/" + String(s).replace(/~/g, "~0").replace(/\//g, "~1")).join("");

/**
 * The server's field names (`blocks[0].renderUrl`, `manifest`, `manifest.settingsSchema`) as JSON
 * pointers (`/blocks/0/renderUrl`, ``, `/settingsSchema`); null when it is not a field name.
 */
export function fieldToPointer(field: string): string | null {
  if (!/^[A-Za-z_$][\w$-]*(\[\d+\]|\.[A-Za-z_$][\w$-]*)*$/.test(field)) return null;
  const segments: string[] = [];
  for (const m of field.matchAll(/\[(\d+)\]|([A-Za-z_$][\w$-]*)/g)) segments.push(m[1] ?? m[2]);
  if (segments[0] === "manifest") segments.shift(); // the server calls the whole document "manifest"
  return segmentsToPointer(segments);
}

/** `blocks[0].renderUrl: must match …` -> its pointer (the document itself when no field is named). */
export function splitServerMessage(message: string): { path: string; message: string } {
  const m = /^([^\s:]+): /.exec(message);
  const path = m ? fieldToPointer(m[1]) : null;
  return { path: path ?? "", message };
}

export type Located = { from: number; to: number; found: boolean };

/**
 * Where a JSON pointer is in the text: the property (key and value) or element it names, when that
 * is on one line; its key (or first line) when it spans several. A pointer to something missing
 * (a required property not written yet) is placed at the nearest thing that exists: the first
 * line of its object, `found: false`.
 */
export function locatePointer(tree: Tree, text: string, pointer: string): Located {
  const root = rootValue(tree);
  if (!root)
    return { from: 0, to: Math.min(text.length, Math.max(0, text.indexOf("\n")) || text.length), found: false };
  let node: SyntaxNode = root;
  let property: SyntaxNode | null = null;
  let found = true;
  for (const segment of pointerSegments(pointer)) {
    let next: SyntaxNode | null = null;
    let nextProperty: SyntaxNode | null = null;
    if (node.name === "Object") {
      nextProperty = objectProperties(node).find((p) => propertyName(p, text) === segment) ?? null;
      next = nextProperty ? propertyValue(nextProperty) : null;
    } else if (node.name === "Array" && /^\d+$/.test(segment)) {
      next = arrayElements(node)[Number(segment)] ?? null;
    }
    if (!next) {
      found = false;
      break;
    }
    node = next;
    property = nextProperty;
  }
  const whole = property && found ? { from: property.from, to: node.to } : { from: node.from, to: node.to };
  if (!text.slice(whole.from, whole.to).includes("\n")) return { ...whole, found };
  const name = property?.getChild("PropertyName");
  if (name && found) return { from: name.from, to: name.to, found };
  const lineEnd = text.indexOf("\n", node.from);
  return { from: node.from, to: lineEnd === -1 ? node.to : lineEnd, found };
}

/** Where JSON.parse stopped, from its message (V8 names a position, sometimes a line and column). */
export function syntaxErrorPosition(message: string, text: string): number {
  let m = /at position (\d+)/.exec(message);
  if (m) return Math.min(Number(m[1]), text.length);
  m = /line (\d+) column (\d+)/.exec(message);
  if (m) {
    const lines = text.split("\n");
    const line = Math.min(Number(m[1]), lines.length);
    const offset = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
    return Math.min(offset + Number(m[2]) - 1, text.length);
  }
  if (/end of (JSON )?input/i.test(message)) return text.length;
  return 0;
}
