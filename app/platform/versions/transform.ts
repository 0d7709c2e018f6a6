/**
 * Version changes (issue 32, decisions 041 and 046), as Stripe keeps them: handlers, serializers,
 * event payloads and hook calls are built in the NEWEST shape only; each version change declares,
 * once, how a value of the version it introduced is taken down to the version before (and, for what
 * an app sends, up again), and the changes between two versions are composed.
 *
 * One mechanism for every shape the platform shows an app: a change is keyed by the name of a zod
 * schema (`.meta({ id })`, the document's component), and applies wherever that schema sits in the
 * schema of what is sent or read (an App API answer or request body, an event's `data`, a hook
 * call's `data` or an app's hook answer; a list's items, a nested field, a field that only describes
 * it with `.describe()`): found once per schema by walking it (`namedSchemasIn`). So no operation,
 * event or hook point declares anything of its own, and a new one, or a new field of a named
 * schema, cannot be forgotten.
 *
 * Each value change can also say how its JSON Schema changes, so the documents of every version
 * come from the newest one. No server code.
 */
import { z } from "zod";
import { versionIndex } from "./registry";

type Json = any;

/** How values (and their schema) of one named schema change from a version to the one before. */
export type ValueChange = {
  /** A value the platform sends (an answer's, an event's, a hook call's) in the newer version -> in the older one. */
  down: (value: Json) => Json;
  /**
   * A value an app sends (a request body's, a hook answer's) in the older version -> in the newer
   * one; `context` is what the value answers (a hook answer: the call's data in the newest shape).
   * Absent: the value is the same in both.
   */
  up?: (value: Json, context: Json) => Json;
  /** The JSON Schema of the value in the newer version -> in the older one. */
  document?: (schema: Json) => Json;
};
export type VersionChange = {
  /** The version that introduced the change (its changes are undone for every older version). */
  version: string;
  /** The anchor of its sentence in the registry and the changelog. */
  anchor: string;
  /** By the name of the zod schema whose values change. */
  schemas: Record<string, ValueChange>;
};

// ---------------------------------------------------------------------------------------------
// Paths inside values (["items", "price"]: the field price of every element of items)

function mapAt(value: Json, path: string[], fn: (v: Json) => Json): Json {
  if (value === null || value === undefined) return value;
  if (Array.isArray(value)) return value.map((v) => mapAt(v, path, fn));
  if (path.length === 0) return fn(value);
  if (typeof value !== "object" || !(path[0] in value)) return value;
  return { ...value, [path[0]]: mapAt(value[path[0]], path.slice(1), fn) };
}

// ---------------------------------------------------------------------------------------------
// Where named schemas sit in an answer schema

type Located = { path: string[]; name: string };
const located = new WeakMap<z.ZodType, Located[]>();

/**
 * The name of a schema, or of the named schema it was derived from by `.describe()` or `.meta()`
 * without an id of its own (`amount: Money.describe("the order's total")`): zod's registry does not
 * pass the id on to such a copy, but the documents refer to the named schema for it, so the walk
 * does too.
 */
function nameOf(schema: z.ZodType): string | undefined {
  for (let s: z.ZodType | undefined = schema; s; s = (s as unknown as { _zod: { parent?: z.ZodType } })._zod.parent) {
    const id = z.globalRegistry.get(s)?.id as string | undefined;
    if (id) return id;
  }
  return undefined;
}

/** Every named schema reachable in `schema` and where (arrays walked by mapAt), the outermost first. */
export function namedSchemasIn(schema: z.ZodType): Located[] {
  let found = located.get(schema);
  if (found) return found;
  found = [];
  const visit = (s: z.ZodType, path: string[], depth: number) => {
    if (depth > 12) return;
    const name = nameOf(s);
    if (name) found!.push({ path, name });
    const def = (s as unknown as { _zod: { def: Json } })._zod.def;
    switch (def.type) {
      case "object":
        for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>)) visit(v, [...path, k], depth + 1);
        break;
      case "array":
        visit(def.element, path, depth + 1);
        break;
      case "nullable":
      case "optional":
      case "default":
      case "readonly":
        visit(def.innerType, path, depth + 1);
        break;
    }
  };
  visit(schema, [], 0);
  located.set(schema, found);
  return found;
}

// ---------------------------------------------------------------------------------------------
// Composition

/** The declared changes, ready to take newest values to any older version and older values up. */
export function versioning(changes: VersionChange[]) {
  const sorted = changes.slice().sort((a, b) => versionIndex(b.version) - versionIndex(a.version));
  for (const c of sorted)
    if (versionIndex(c.version) < 0) throw new Error(`version change ${c.anchor}: unknown version ${c.version}`);
  /** The changes to undo to answer in `target`, newest first (none for the newest version). */
  const downTo = (target: string) => sorted.filter((c) => versionIndex(c.version) > versionIndex(target));

  return {
    changes: sorted,
    downTo,
    /**
     * A value of `schema` the platform sends, in the newest shape -> in `target`: an App API answer,
     * an event's data, a hook call's data.
     */
    down(schema: z.ZodType | undefined, value: Json, target: string): Json {
      if (!schema || value === null || value === undefined) return value;
      const undo = downTo(target);
      if (undo.length === 0) return value;
      const where = namedSchemasIn(schema);
      for (const change of undo)
        for (const { path, name } of where) {
          const c = change.schemas[name];
          if (c) value = mapAt(value, path, c.down);
        }
      return value;
    },
    /**
     * A value of `schema` an app sends, in `target` -> in the newest shape: a request body, a hook
     * answer (`context`: the call's data in the newest shape). The innermost values first.
     */
    up(schema: z.ZodType | undefined, value: Json, target: string, context?: Json): Json {
      if (!schema || value === null || value === undefined) return value;
      const redo = downTo(target).reverse();
      if (redo.length === 0) return value;
      const where = namedSchemasIn(schema).slice().reverse();
      for (const change of redo)
        for (const { path, name } of where) {
          const up = change.schemas[name]?.up;
          if (up) value = mapAt(value, path, (v) => up(v, context));
        }
      return value;
    },
    /** The named schemas of a document (`components.schemas`, a schema's `$defs`) in the newest shape -> in `target`. */
    components(schemas: Record<string, Json>, target: string): Record<string, Json> {
      let out = schemas;
      for (const change of downTo(target))
        for (const [name, c] of Object.entries(change.schemas))
          if (c.document && out[name]) out = { ...out, [name]: c.document(out[name]) };
      return out;
    },
  };
}

export type Versioning = ReturnType<typeof versioning>;
