/**
 * Version changes (issue 32, decision 041), as Stripe keeps them: handlers, serializers, event
 * payloads and hook calls are built in the NEWEST shape only; each version change declares, once,
 * how a value of the version it introduced is taken down to the version before (and, for what an
 * app sends, up again), and the changes between two versions are composed. A change is keyed by
 * what it touches:
 *
 * - `schemas`: answer values by the name of their zod schema (`.meta({ id })`, the document's
 *   component), wherever that schema sits in an answer (a list's items, a nested field): found once
 *   per answer schema by walking it, so an operation's answer needs no declaration of its own;
 * - `events`: webhook payloads (`data`) by event type;
 * - `hooks`: hook calls (`data`, down) and their answers (up) by hook point;
 * - `requests`: request bodies (up) by operation id (none so far: no App API body carries money).
 *
 * Each value change can also say how its JSON Schema changes, so the documents of every version
 * come from the newest one. No server code.
 */
import { z } from "zod";
import { versionIndex } from "./registry";

type Json = any;

/** How values (and their schema) of one named schema or event change from a version to the one before. */
export type ValueChange = {
  down: (value: Json) => Json;
  /** The JSON Schema of the value in the newer version -> in the older one. */
  document?: (schema: Json) => Json;
};
export type HookChange = {
  /** The call's `data` in the newer version -> in the older one. */
  callDown: (data: Json) => Json;
  /** An answer the app gave in the older version -> the newer one (`call` is the newest call data). */
  answerUp: (answer: Json, call: Json) => Json;
};
export type VersionChange = {
  /** The version that introduced the change (its changes are undone for every older version). */
  version: string;
  /** The anchor of its sentence in the registry and the changelog. */
  anchor: string;
  schemas?: Record<string, ValueChange>;
  events?: Record<string, ValueChange>;
  hooks?: Record<string, HookChange>;
  /** Request bodies of the older version -> the newer one, by operation id. */
  requests?: Record<string, (body: Json) => Json>;
};

// ---------------------------------------------------------------------------------------------
// Paths inside values and JSON Schemas ("items.price": the field price of every element of items)

function mapAt(value: Json, path: string[], fn: (v: Json) => Json): Json {
  if (value === null || value === undefined) return value;
  if (Array.isArray(value)) return value.map((v) => mapAt(v, path, fn));
  if (path.length === 0) return fn(value);
  if (typeof value !== "object" || !(path[0] in value)) return value;
  return { ...value, [path[0]]: mapAt(value[path[0]], path.slice(1), fn) };
}

function mapSchemaAt(schema: Json, path: string[], fn: (s: Json) => Json): Json {
  if (!schema || typeof schema !== "object") return schema;
  if (schema.type === "array" && schema.items) return { ...schema, items: mapSchemaAt(schema.items, path, fn) };
  if (schema.anyOf)
    return { ...schema, anyOf: schema.anyOf.map((s: Json) => (s?.type === "null" ? s : mapSchemaAt(s, path, fn))) };
  if (path.length === 0) return fn(schema);
  if (!schema.properties?.[path[0]]) return schema;
  return {
    ...schema,
    properties: { ...schema.properties, [path[0]]: mapSchemaAt(schema.properties[path[0]], path.slice(1), fn) },
  };
}

/** A value change of these fields (dotted paths; arrays are walked), each changed by `down` and documented by `document`. */
export function fieldsChange(paths: string[], down: (v: Json) => Json, document: (s: Json) => Json): ValueChange {
  const split = paths.map((p) => p.split("."));
  return {
    down: (value) => split.reduce((v, path) => mapAt(v, path, down), value),
    document: (schema) => split.reduce((s, path) => mapSchemaAt(s, path, document), schema),
  };
}

// ---------------------------------------------------------------------------------------------
// Where named schemas sit in an answer schema

type Located = { path: string[]; name: string };
const located = new WeakMap<z.ZodType, Located[]>();

const nameOf = (schema: z.ZodType) => z.globalRegistry.get(schema)?.id as string | undefined;

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

/** The declared changes, ready to take newest values to any older version. */
export function versioning(changes: VersionChange[]) {
  const sorted = changes.slice().sort((a, b) => versionIndex(b.version) - versionIndex(a.version));
  for (const c of sorted)
    if (versionIndex(c.version) < 0) throw new Error(`version change ${c.anchor}: unknown version ${c.version}`);
  /** The changes to undo to answer in `target`, newest first (none for the newest version). */
  const downTo = (target: string) => sorted.filter((c) => versionIndex(c.version) > versionIndex(target));

  return {
    changes: sorted,
    downTo,
    /** An answer of `schema` in the newest shape -> in `target`. */
    answer(schema: z.ZodType | undefined, value: Json, target: string): Json {
      if (!schema || value === null || value === undefined) return value;
      const undo = downTo(target);
      if (undo.length === 0) return value;
      const where = namedSchemasIn(schema);
      for (const change of undo)
        for (const { path, name } of where) {
          const c = change.schemas?.[name];
          if (c) value = mapAt(value, path, c.down);
        }
      return value;
    },
    /** An event's data in the newest shape -> in `target`. */
    event(type: string, data: Json, target: string): Json {
      for (const change of downTo(target)) {
        const c = change.events?.[type];
        if (c) data = c.down(data);
      }
      return data;
    },
    /** An event's payload JSON Schema in the newest shape -> in `target` (for the document's webhooks section). */
    eventSchema(type: string, schema: Json, target: string): Json {
      for (const change of downTo(target)) {
        const c = change.events?.[type];
        if (c?.document) schema = c.document(schema);
      }
      return schema;
    },
    /** A hook call's data in the newest shape -> in `target`. */
    hookCall(point: string, data: Json, target: string): Json {
      for (const change of downTo(target)) {
        const c = change.hooks?.[point];
        if (c) data = c.callDown(data);
      }
      return data;
    },
    /** A hook's answer given in `target` -> the newest shape (`call`: the newest call data). */
    hookAnswer(point: string, answer: Json, call: Json, target: string): Json {
      for (const change of downTo(target).reverse()) {
        const c = change.hooks?.[point];
        if (c) answer = c.answerUp(answer, call);
      }
      return answer;
    },
    /** A request body sent in `target` -> the newest shape. */
    request(operationId: string, body: Json, target: string): Json {
      for (const change of downTo(target).reverse()) {
        const up = change.requests?.[operationId];
        if (up) body = up(body);
      }
      return body;
    },
    /** The named schemas of a document (`components.schemas`) in the newest shape -> in `target`. */
    components(schemas: Record<string, Json>, target: string): Record<string, Json> {
      let out = schemas;
      for (const change of downTo(target))
        for (const [name, c] of Object.entries(change.schemas ?? {}))
          if (c.document && out[name]) out = { ...out, [name]: c.document(out[name]) };
      return out;
    },
  };
}

export type Versioning = ReturnType<typeof versioning>;
