/**
 * The OpenAPI side of declared operations (decision 025): each declared route's part of an OpenAPI
 * 3.1 document (`openApiPaths`: parameters, bodies, answers and errors, named schemas as
 * components), the `webhooks` section, and an area's whole document (`openApiDocumentOf`).
 */
import { z } from "zod";
import { METHODS, type DeclaredOperation, type DeclaredRoute, type Fields, type Method } from "./operation-spec.server";

/** `/app-api/orders/{id}` -> `getAppApiOrdersId` */
export function operationId(method: Method, path: string): string {
  return `${method.toLowerCase()}${path.replace(/[{}]/g, "").replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`;
}

/** The `{name}`s of an OpenAPI path, in order. */
export const pathParamNames = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _s, ...rest } = z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) as Record<
    string,
    unknown
  >;
  return rest;
}

function parametersOf(where: "path" | "query" | "header", schema: Fields | undefined, names: string[]) {
  const shape = (schema?.shape ?? {}) as Record<string, z.ZodType>;
  const keys = where === "path" ? names : Object.keys(shape);
  return keys.map((name) => {
    const field = shape[name];
    const json = field ? jsonSchemaOf(field) : { type: "string" };
    const { description, ...rest } = json as { description?: string };
    return {
      name,
      in: where,
      required: where === "path" ? true : !(field?.safeParse(undefined).success ?? true),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

/** The name a schema is registered under (`.meta({ id })`), if any. */
export const schemaName = (schema: z.ZodType) => z.globalRegistry.get(schema)?.id as string | undefined;

/** What an area adds to its document's operations: error words, its own error statuses, the caller's sentence, security and `x-` fields, answer headers, its `webhooks`. */
export type DocumentArea = Parameters<typeof openApiPaths>[1];

/**
 * A request the platform sends (an event's delivery, a hook call), for the document's OpenAPI 3.1
 * `webhooks` section: its name, words, the headers it carries, its body, and the answers it expects
 * (a schema for an answer whose body the platform reads).
 */
export type DeclaredWebhook = {
  name: string;
  operationId: string;
  summary: string;
  description?: string;
  fields?: Record<string, unknown>;
  headers: readonly { name: string; description: string }[];
  body: z.ZodType;
  answers: { status: string; description: string; schema?: z.ZodType }[];
};

const collected = new WeakMap<DeclaredRoute[], ReturnType<typeof openApiPaths>>();

/** `openApiPaths` once per list of routes: a document is built once per process, however often it is served. */
export function openApiPathsOnce(routes: DeclaredRoute[], area: DocumentArea) {
  let paths = collected.get(routes);
  if (!paths) collected.set(routes, (paths = openApiPaths(routes, area)));
  return paths;
}

/** The license both documents state (decision 037). */
export const DOCUMENT_LICENSE = { name: "MIT", identifier: "MIT" };

/**
 * An area's OpenAPI 3.1 document: its title and description, the server, its tags, its own
 * components (security schemes, headers) with the schemas its operations use, and their paths;
 * `pages` adds paths that are not JSON operations (the consent screen), written out by their area.
 */
export function openApiDocumentOf(
  routes: DeclaredRoute[],
  area: DocumentArea,
  doc: {
    title: string;
    description: string;
    publicUrl: string;
    tags?: unknown[];
    components: object;
    pages?: Record<string, Record<string, unknown>>;
  },
) {
  const collected = openApiPathsOnce(routes, area);
  return {
    openapi: "3.1.0",
    info: { title: doc.title, version: "1.0.0", description: doc.description, license: DOCUMENT_LICENSE },
    servers: [{ url: doc.publicUrl }],
    ...(doc.tags ? { tags: doc.tags } : {}),
    components: { ...doc.components, schemas: collected.components },
    paths: { ...collected.paths, ...doc.pages },
    ...(area.webhooks ? { webhooks: collected.webhooks } : {}),
  };
}

/** What every 429 is sent with: how long to wait. */
export const RETRY_AFTER_HEADER = {
  "Retry-After": {
    description: "Seconds to wait before trying again",
    schema: { type: "integer", minimum: 0 },
  },
};

/**
 * The `paths` of a document from declared routes, and the named schemas they use. `area` adds
 * what the area knows (security, the scope sentence, its error statuses and answer headers).
 */
export function openApiPaths(
  routes: DeclaredRoute[],
  area: {
    errorText: Record<number, string>;
    extraErrors(op: DeclaredOperation): number[];
    describe(op: DeclaredOperation): string | undefined;
    operationFields(op: DeclaredOperation): Record<string, unknown>;
    /** The headers an answer of this status is sent with (the App API's rate-limit headers); a 429's Retry-After is added to them. */
    headersFor?(status: number): Record<string, unknown> | undefined;
    webhooks?: DeclaredWebhook[];
    /** The area's lists page by cursor too (`after`, contract 6). */
    cursors?: boolean;
  },
) {
  const named = new Map<string, "input" | "output">();
  const ref = (schema: z.ZodType, fallback: string, io: "input" | "output") => {
    let name = schemaName(schema);
    if (!name) {
      name = fallback;
      z.globalRegistry.add(schema, { id: name });
    }
    if (named.get(name) !== "output") named.set(name, io);
    return { $ref: `#/components/schemas/${name}` };
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    for (const method of METHODS) {
      const spec = route.operations[method];
      if (!spec) continue;
      const op: DeclaredOperation = {
        method,
        path: route.path,
        caller: route.caller,
        permission: route.permission,
        spec,
      };
      const id = operationId(method, route.path);
      const parameters = [
        ...parametersOf("path", spec.params, pathParamNames(route.path)),
        ...parametersOf("query", spec.query, []),
        ...parametersOf("header", spec.headers, []),
      ];
      if (spec.page)
        parameters.push(
          {
            name: "page",
            in: "query",
            required: false,
            description: "Page number, from 1",
            schema: { type: "integer", minimum: 1, default: 1 },
          },
          {
            name: "limit",
            in: "query",
            required: false,
            description: `Page size; above ${spec.page.max} it is clamped to ${spec.page.max}`,
            schema: { type: "integer", minimum: 1, default: spec.page.limit },
          },
          ...(area.cursors
            ? [
                {
                  name: "after",
                  in: "query" as const,
                  required: false,
                  description:
                    "The previous page's nextCursor: the page after it, at the same cost at any depth (instead of page; both: 400)",
                  schema: { type: "string" },
                },
              ]
            : []),
        );
      const headersOf = (status: number) => {
        const headers = { ...area.headersFor?.(status), ...(status === 429 ? RETRY_AFTER_HEADER : {}) };
        return Object.keys(headers).length ? { headers } : {};
      };
      const responses: Record<string, unknown> = {
        [spec.answer.status]: {
          description: spec.answer.description ?? "OK",
          ...headersOf(spec.answer.status),
          ...(spec.answer.schema
            ? {
                content: {
                  [spec.answer.mediaType ?? "application/json"]: {
                    schema: ref(spec.answer.schema, `${id[0].toUpperCase()}${id.slice(1)}Answer`, "output"),
                  },
                },
              }
            : {}),
        },
      };
      const errorBody = spec.errorSchema
        ? ref(spec.errorSchema, `${id[0].toUpperCase()}${id.slice(1)}Error`, "output")
        : { $ref: "#/components/schemas/Error" };
      // every operation that reads a JSON body answers 413 past 1 MiB (readBodyText); an upload answers 400 past its limit
      const errors = [
        ...spec.errors,
        ...area.extraErrors(op),
        ...(spec.body && spec.bodyMediaType !== "multipart/form-data" ? [413] : []),
      ];
      for (const status of [...new Set(errors)].sort())
        responses[status] = {
          description: area.errorText[status] ?? "Error",
          ...headersOf(status),
          content: { "application/json": { schema: errorBody } },
        };
      if (!spec.errorSchema) named.set("Error", "output");
      const description = [spec.description, area.describe(op)].filter(Boolean).join(" ");
      (paths[route.path] ??= {})[method.toLowerCase()] = {
        summary: spec.summary,
        ...(description ? { description } : {}),
        operationId: id,
        ...area.operationFields(op),
        ...(parameters.length ? { parameters } : {}),
        ...(spec.body
          ? {
              requestBody: {
                required: !spec.bodyOptional,
                content: Object.fromEntries(
                  [spec.bodyMediaType ?? "application/json"]
                    .flat()
                    .map((type) => [
                      type,
                      { schema: ref(spec.body!, `${id[0].toUpperCase()}${id.slice(1)}Body`, "input") },
                    ]),
                ),
              },
            }
          : {}),
        responses,
      };
    }
  }
  const webhooks: Record<string, unknown> = {};
  for (const hook of area.webhooks ?? [])
    webhooks[hook.name] = {
      post: {
        summary: hook.summary,
        ...(hook.description ? { description: hook.description } : {}),
        operationId: hook.operationId,
        ...hook.fields,
        parameters: hook.headers.map((h) => ({
          name: h.name,
          in: "header",
          required: true,
          description: h.description,
          schema: { type: "string" },
        })),
        requestBody: {
          required: true,
          content: { "application/json": { schema: ref(hook.body, `${hook.operationId}Body`, "output") } },
        },
        responses: Object.fromEntries(
          hook.answers.map((a) => [
            a.status,
            {
              description: a.description,
              ...(a.schema
                ? { content: { "application/json": { schema: ref(a.schema, `${hook.operationId}Answer`, "input") } } }
                : {}),
            },
          ]),
        ),
      },
    };
  return { paths, webhooks, components: componentsFor(named) };
}

/**
 * The named schemas a document uses and every named schema they reach, as JSON Schema 2020-12
 * (zod 4's own `z.toJSONSchema`, references as `#/components/schemas/<name>`). A schema used only
 * as a request body is described as zod reads it (`io: "input"`: a field with a default is
 * optional, unknown fields of a non-strict object are allowed); answers as the platform writes them.
 */
function componentsFor(used: Map<string, "input" | "output">) {
  const generate = (io: "input" | "output") =>
    (
      z.toJSONSchema(z.globalRegistry, {
        uri: (name) => `#/components/schemas/${name}`,
        unrepresentable: "any",
        io,
      }) as { schemas: Record<string, Record<string, unknown>> }
    ).schemas;
  const generated = { input: generate("input"), output: generate("output") };
  const out: Record<string, Record<string, unknown>> = {};
  const modes = new Map<string, "input" | "output">();
  const visit = (name: string, io: "input" | "output") => {
    if (modes.get(name) === "output" || modes.get(name) === io || !generated[io][name]) return;
    modes.set(name, io);
    const { $schema: _s, $id: _i, ...rest } = generated[io][name];
    out[name] = rest;
    JSON.stringify(rest, (key, value) => {
      if (key === "$ref" && typeof value === "string" && value.startsWith("#/components/schemas/"))
        visit(value.slice("#/components/schemas/".length), io);
      return value;
    });
  };
  for (const [name, io] of used) if (io === "output") visit(name, io);
  for (const [name, io] of used) if (io === "input") visit(name, io);
  return Object.fromEntries(
    Object.keys(out)
      .sort()
      .map((k) => [k, out[k]]),
  );
}
