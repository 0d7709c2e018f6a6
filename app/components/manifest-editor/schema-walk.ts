/**
 * Reading a JSON Schema at a path, for completion: the properties an object may have (with the
 * schema's description, or a summary of its constraints) and the values an enum allows. Fed with
 * the very schema the server validates with (`manifestJsonSchema`, manifest-schema.ts).
 *
 * Supports what that schema uses: properties, items, enum/const, required, and `allOf` of
 * `if`/`then` (an embed's `kind` narrows its `position`). An `if` holds here only when the
 * properties it tests are present with its values: while `kind` is not written yet, no branch
 * narrows anything (JSON Schema would apply both, which helps no one typing).
 */
export type JsonSchema = {
  type?: string;
  description?: string;
  title?: string;
  properties?: Readonly<Record<string, JsonSchema>>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  required?: readonly string[];
  enum?: readonly unknown[];
  const?: unknown;
  allOf?: readonly JsonSchema[];
  if?: JsonSchema;
  then?: JsonSchema;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function conditionHolds(condition: JsonSchema, value: unknown): boolean {
  if (!isObject(value)) return false;
  for (const key of condition.required ?? []) if (!(key in value)) return false;
  for (const [key, sub] of Object.entries(condition.properties ?? {})) {
    if (!(key in value)) return false;
    if ("const" in sub && value[key] !== sub.const) return false;
    if (sub.enum && !sub.enum.includes(value[key])) return false;
  }
  return true;
}

function merge(a: JsonSchema, b: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...a, ...b };
  if (a.enum && b.enum) out.enum = a.enum.filter((v) => b.enum!.includes(v));
  if (a.required || b.required) out.required = [...new Set([...(a.required ?? []), ...(b.required ?? [])])];
  if (a.properties || b.properties) {
    const properties: Record<string, JsonSchema> = { ...a.properties };
    for (const [key, sub] of Object.entries(b.properties ?? {}))
      properties[key] = properties[key] ? merge(properties[key], sub) : sub;
    out.properties = properties;
  }
  delete out.allOf;
  return out;
}

/** The schema with the `allOf` parts that apply to `value` folded in. */
export function effectiveSchema(schema: JsonSchema, value: unknown): JsonSchema {
  let out: JsonSchema = { ...schema };
  for (const part of schema.allOf ?? []) {
    if (part.if) {
      if (part.then && conditionHolds(part.if, value)) out = merge(out, effectiveSchema(part.then, value));
    } else out = merge(out, effectiveSchema(part, value));
  }
  delete out.allOf;
  return out;
}

/**
 * The schema of the value at `path` (`["embeds", 0, "position"]`), given the document's value so
 * far (`root`, for the conditions); null where the schema says nothing (inside `settingsSchema`).
 */
export function schemaAt(schema: JsonSchema, path: (string | number)[], root: unknown): JsonSchema | null {
  let current: JsonSchema | null = effectiveSchema(schema, root);
  let value: unknown = root;
  for (const segment of path) {
    if (!current) return null;
    value = isObject(value) || Array.isArray(value) ? (value as Record<string | number, unknown>)[segment] : undefined;
    let next: JsonSchema | undefined;
    if (typeof segment === "number") next = current.items;
    else
      next =
        current.properties?.[segment] ??
        (isObject(current.additionalProperties) ? current.additionalProperties : undefined);
    current = next ? effectiveSchema(next, value) : null;
  }
  return current;
}

/** The JSON type a schema asks for ("string" for an enum of strings). */
export function typeOf(schema: JsonSchema): string | undefined {
  if (schema.type) return schema.type;
  const values = schema.enum ?? ("const" in schema ? [schema.const] : undefined);
  if (values?.length && values.every((v) => typeof v === "string")) return "string";
  return undefined;
}

/** A short line about what a property takes: "one of head, body_end", "http(s) URL", "1-100 characters". */
export function describeSchema(schema: JsonSchema): string {
  if (schema.description) return schema.description;
  if (schema.enum) return `One of ${schema.enum.map(String).join(", ")}.`;
  const parts: string[] = [];
  const type = typeOf(schema);
  if (type === "array") parts.push(schema.maxItems !== undefined ? `A list of at most ${schema.maxItems}.` : "A list.");
  else if (type === "object") parts.push("An object.");
  else if (type === "string") {
    if (schema.pattern?.startsWith("^https?://")) parts.push("An absolute http(s) URL.");
    else if (schema.pattern?.startsWith("^/")) parts.push("A path on the app's server, starting with /.");
    else if (schema.pattern === "^[a-z0-9][a-z0-9_-]{0,63}$") parts.push("A key: lowercase letters, digits, - and _.");
    else parts.push("Text.");
    if (schema.minLength && schema.maxLength) parts.push(`${schema.minLength} to ${schema.maxLength} characters.`);
    else if (schema.maxLength) parts.push(`At most ${schema.maxLength} characters.`);
  } else if (type === "integer" || type === "number") {
    parts.push(
      type === "integer"
        ? "A whole number" +
            (schema.minimum !== undefined && schema.maximum !== undefined
              ? ` from ${schema.minimum} to ${schema.maximum}.`
              : ".")
        : "A number.",
    );
  }
  return parts.join(" ");
}

export type KeyOption = { name: string; required: boolean; type: string | undefined; info: string; schema: JsonSchema };

/** The properties the object at `path` may still get (those not written yet), required ones first. */
export function keyOptions(
  schema: JsonSchema,
  path: (string | number)[],
  root: unknown,
  existing: string[],
): KeyOption[] {
  const object = schemaAt(schema, path, root);
  if (!object?.properties) return [];
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties)
    .filter(([name]) => !existing.includes(name))
    .map(([name, sub]) => ({
      name,
      required: required.has(name),
      type: typeOf(sub),
      info: describeSchema(sub),
      schema: sub,
    }))
    .sort((a, b) => Number(b.required) - Number(a.required));
}

/** The values the schema at `path` allows, when it lists them (enum, const, boolean). */
export function valueOptions(schema: JsonSchema, path: (string | number)[], root: unknown): unknown[] {
  const at = schemaAt(schema, path, root);
  if (!at) return [];
  if (at.enum) return [...at.enum];
  if ("const" in at) return [at.const];
  if (at.type === "boolean") return [true, false];
  return [];
}
