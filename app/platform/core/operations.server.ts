/**
 * A JSON operation declared once (issue 23, decision 025): method, summary, caller, scope, path,
 * path/query/header parameters, body and answer as zod schemas, pagination limits and error
 * statuses, next to its handler in its route module. The same declaration validates the request
 * (`readInput`: the contract's 400 body naming the field, never a 500) and becomes its part of an
 * OpenAPI 3.1 document (`openApiPaths`). A route module exports its declarations with its loader and
 * action; the documents are collected from the route modules a registry imports explicitly
 * (`app/operations.server.ts`), and a test walks the route tree to keep that registry complete.
 */
import { z } from "zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  ApiError,
  describeZodError,
  cursorPaginated,
  errorResponse,
  json,
  paginated,
  parsePagination,
  readJson,
  readMultipart,
  toErrorResponse,
} from "./http.server";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export const METHODS: readonly Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** Page size by default and at most (contract 6: a larger `limit` is clamped, not refused). */
export type PageLimits = { limit: number; max: number };
export type Pagination = {
  page: number;
  limit: number;
  offset: number;
  /** In an area whose lists page by cursor (`Area.cursorKey`): the `after` sent, and the key of its signature. */
  cursor?: { after: string | null; key: string };
};

type Fields = z.ZodObject;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What one operation declares besides its handler. */
export type OperationSpec<
  P extends Fields | undefined = Fields | undefined,
  Q extends Fields | undefined = Fields | undefined,
  H extends Fields | undefined = Fields | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
> = {
  summary: string;
  /** More words for the document (the scope sentence is added by the area). */
  description?: string;
  /** The scope the installation needs (App API); absent: none. */
  scope?: string;
  /**
   * The least role on the app (named by the path's `appId`) a developer needs for the operation
   * (contract 17: VIEWER < DEVELOPER < ADMIN < OWNER); a developer who is not a member gets 404.
   */
  appRole?: "OWNER" | "ADMIN" | "DEVELOPER" | "VIEWER";
  /**
   * The first API version the operation exists in (App API, contract 12; absent: every version).
   * A call in an older version is answered 404 naming the version it needs, and the documents of
   * older versions leave the operation out.
   */
  since?: string;
  /** Path parameters by their name in the path ({id}); absent: the route's parameters, undescribed. */
  params?: P;
  query?: Q;
  /** Request headers by name (matched case-insensitively). */
  headers?: H;
  /** A list: `page` and `limit` are read and checked, and documented with these figures. */
  page?: PageLimits;
  /** The JSON body; an empty body reads as {} when `bodyOptional`. */
  body?: B;
  bodyOptional?: boolean;
  /**
   * The body's media types in the document when it is not JSON alone (/oauth/token's form and JSON;
   * its route reads it itself). `multipart/form-data` is read here: its fields, files as `File`s,
   * validated by `body` (POST /merchant/files).
   */
  bodyMediaType?: string | string[];
  /** A multipart body's refusal past its size limit (400: the upload's own limit, contract 20). */
  bodyTooLarge?: string;
  /** Runs on the parsed JSON before `body` validates it, for refusals whose wording the contract fixes ("slug is immutable"). */
  bodyPrecheck?: (raw: unknown) => void;
  /** The success answer: its status, its media type when not JSON (an event stream), and, unless empty, its schema (a named schema becomes a component). */
  answer: { status: number; schema?: z.ZodType; description?: string; mediaType?: string };
  /** Error statuses the operation itself may answer (the area adds its own, such as 401 and 429). */
  errors: number[];
  /** The error body when it is not the contract's `Error` (/oauth/token answers RFC 6749's). */
  errorSchema?: z.ZodType;
};

/** What a handler receives besides its area's arguments: the request's validated parts. */
export type OperationInput<P, Q, H, B, G> = {
  params: P extends Fields ? z.output<P> : Record<string, string | undefined>;
  query: Out<Q>;
  headers: Out<H>;
  body: Out<B>;
  page: G extends PageLimits ? Pagination : undefined;
};

/** One declared operation as collected for a document. */
export type DeclaredOperation = {
  method: Method;
  path: string;
  caller: string;
  permission?: string | null;
  spec: OperationSpec;
};
/**
 * A route module's declarations: its OpenAPI path, who calls it, and one operation per method;
 * `permission` (the merchant areas, contract 17) is what a business's member needs, null for any member.
 */
export type DeclaredRoute = {
  path: string;
  caller: string;
  permission?: string | null;
  operations: Partial<Record<Method, OperationSpec>>;
};

function shapeKeys(schema: Fields): string[] {
  return Object.keys(schema.shape);
}

function validate<S extends z.ZodType>(schema: S, value: unknown, where?: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success)
    throw new ApiError(400, where ? `${where} ${describeZodError(result.error)}` : describeZodError(result.error));
  return result.data;
}

/**
 * The request's parts as the operation declares them, each validated: 400 with the contract's body
 * naming the field (from `describeZodError`), 413 for a body over 1 MiB; nothing is read that is
 * not declared (an operation without a body never reads the stream).
 */
export async function readInput(
  spec: OperationSpec,
  request: Request,
  routeParams: Record<string, string | undefined>,
  bodyUp: (raw: unknown) => unknown = (raw) => raw,
  cursorKey?: string,
) {
  const params = spec.params ? validate(spec.params, routeParams) : routeParams;
  let url: URL | undefined;
  const page = spec.page ? parsePagination((url ??= new URL(request.url)), spec.page, cursorKey) : undefined;
  let query: unknown;
  if (spec.query) {
    const search = (url ??= new URL(request.url)).searchParams;
    const raw: Record<string, string | undefined> = {};
    for (const key of shapeKeys(spec.query)) raw[key] = search.get(key) ?? undefined;
    query = validate(spec.query, raw);
  }
  let headers: unknown;
  if (spec.headers) {
    const raw: Record<string, string | undefined> = {};
    for (const key of shapeKeys(spec.headers)) raw[key] = request.headers.get(key) ?? undefined;
    headers = validate(spec.headers, raw);
  }
  let body: unknown;
  if (spec.body && spec.bodyMediaType === "multipart/form-data") {
    // an upload: its fields (files as File) validated like a JSON body; its size limit is the file's (decision 060)
    body = validate(spec.body, await readMultipart(request, spec.bodyTooLarge ?? "Request body is too large"));
  } else if (spec.body) {
    const raw = bodyUp(await readJson(request, { optional: spec.bodyOptional }));
    spec.bodyPrecheck?.(raw);
    body = validate(spec.body, raw);
  }
  return { params, query, headers, body, page } as OperationInput<Fields, Fields, Fields, z.ZodType, PageLimits>;
}

// ---------------------------------------------------------------------------------------------
// What both wrappers (app-api/wrapper.server.ts, platform-api/wrapper.server.ts) share

/** What a handler may give back: a Response as it is, anything else is sent as JSON. */
type Answered = Promise<Response | object | null>;
/** A declared operation with its handler, as a route module's table holds it. */
export type OperationWithHandler = OperationSpec & { handler: (args: any) => Answered };
/** A route module's table: one declared operation per method. */
export type Operations = Partial<Record<Method, OperationWithHandler>>;

/**
 * Makes an area's `operation()`: the declaration as `OperationSpec` describes it, the area's own
 * fields (`Extra`: the App API's typed scope), and a handler whose arguments are the area's (`Args`:
 * Remix's, with the caller) plus the request's parts typed by the declaration's schemas. The
 * generics are inferred from each declaration.
 */
export function operationsOf<Args, Extra = object>() {
  return function operation<
    P extends Fields | undefined = undefined,
    Q extends Fields | undefined = undefined,
    H extends Fields | undefined = undefined,
    B extends z.ZodType | undefined = undefined,
    G extends PageLimits | undefined = undefined,
  >(
    declared: Omit<OperationSpec<P, Q, H, B>, "scope" | "page"> &
      Extra & {
        page?: G;
        handler: (args: Omit<Args, "params"> & OperationInput<P, Q, H, B, G>) => Answered;
      },
  ): OperationWithHandler {
    return declared as unknown as OperationWithHandler;
  };
}

/**
 * What a handler of a rendered area gives back (decision 046): the value of its declared answer
 * schema, which the area renders (the App API: in the request's API version, with the declared
 * status); nothing for an answer without a body. Never a Response: a ready Response would skip
 * the rendering, so it does not type-check (and `declaredRoute` refuses one at run time).
 */
export type AnswerValue<A> = A extends z.ZodType ? z.input<A> : undefined | void;

/**
 * `operationsOf` for an area that renders every answer itself (`Area.render`: the App API): the
 * handler's result is typed by the declared answer schema (`answer.schema`), so that a handler can
 * only give the value the operation documents, never a Response.
 */
export function renderedOperationsOf<Args, Extra = object>() {
  return function operation<
    P extends Fields | undefined = undefined,
    Q extends Fields | undefined = undefined,
    H extends Fields | undefined = undefined,
    B extends z.ZodType | undefined = undefined,
    G extends PageLimits | undefined = undefined,
    A extends z.ZodType | undefined = undefined,
  >(
    declared: Omit<OperationSpec<P, Q, H, B>, "scope" | "page" | "answer"> &
      Extra & {
        page?: G;
        answer: Omit<OperationSpec["answer"], "schema"> & { schema?: A };
        handler: (args: Omit<Args, "params"> & OperationInput<P, Q, H, B, G>) => Promise<AnswerValue<A>>;
      },
  ): OperationWithHandler {
    return declared as unknown as OperationWithHandler;
  };
}

/** The operation a request's method calls (HEAD reads as GET), and the methods the route allows. */
function operationFor<O>(operations: Partial<Record<Method, O>>, request: Request) {
  const method = request.method.toUpperCase() as Method;
  const op = operations[method] ?? (method === ("HEAD" as Method) ? operations.GET : undefined);
  const allowed = Object.keys(operations).join(", ");
  return {
    op,
    /** 405 with Allow, for a method the route does not declare. */
    notAllowed: (headers: Record<string, string>) =>
      errorResponse(405, `Method ${method} not allowed; use ${allowed}`, { ...headers, Allow: allowed }),
  };
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  return response;
}

type RemixArgs = LoaderFunctionArgs | ActionFunctionArgs;

/** What an area's wrapper adds to the one dispatcher of `declaredRoute`. */
export type Area<Entered> = {
  /**
   * Before the method is looked at (the App API: the token and the rate limit): an answer that ends
   * the request, or what the area knows now and the headers every later answer carries.
   */
  enter(args: RemixArgs): Promise<Response | { entered: Entered; headers: Record<string, string> }>;
  /** Once the operation is known: the caller's checks (role, scope; they throw ApiError) and the arguments the handler gets besides Remix's. */
  admit(op: OperationWithHandler, args: RemixArgs, entered: Entered): Promise<object>;
  /** The platform areas send a handler's undefined as `null`; the App API as an empty 200. */
  nullForUndefined?: boolean;
  /** A request body as the caller sent it -> as the operation declares it (the App API: older API versions' bodies, up). */
  bodyUp?(op: OperationWithHandler, raw: unknown, entered: Entered): unknown;
  /**
   * A handler's answer -> the Response (the App API: the answer in the request's API version, with
   * the declared status). An area with `render` renders every answer: its handlers cannot give a
   * Response (`renderedOperationsOf`), and one that does anyway is refused with a 500.
   */
  render?(op: OperationWithHandler, result: object | null, entered: Entered): Response;
  /** The key that signs the area's list cursors: its lists then read `after` (contract 6, decision 067). */
  cursorKey?(args: RemixArgs): string;
};

/**
 * A route module's exports (decision 025): one dispatcher as loader and action, and its
 * declarations for the documents. Answers in order: what the area's `enter` refuses, 405 (method,
 * with Allow), what its `admit` refuses, 400/413 (the declared parameters and body, `readInput`),
 * then the handler's answer as a Response; each carries the headers `enter` gave.
 */
export function declaredRoute<Entered>(
  path: string,
  caller: string,
  operations: Operations,
  area: Area<Entered>,
  permission?: string | null,
) {
  const dispatch = async (args: RemixArgs) => {
    const entry = await area.enter(args);
    if (entry instanceof Response) return entry;
    const { op, notAllowed } = operationFor(operations, args.request);
    if (!op) return notAllowed(entry.headers);
    try {
      const extra = await area.admit(op, args, entry.entered);
      const bodyUp = area.bodyUp && ((raw: unknown) => area.bodyUp!(op, raw, entry.entered));
      const input = await readInput(op, args.request, args.params, bodyUp, area.cursorKey?.(args));
      const result = await op.handler({ ...args, ...input, ...extra });
      // an area that renders its answers renders every one: a ready Response would skip it (decision 046)
      if (area.render && result instanceof Response)
        throw new Error(
          `${args.request.method} ${path}: the handler gave a Response; give the answer's value, which the area renders`,
        );
      const response =
        result instanceof Response
          ? result
          : area.render
            ? area.render(op, result, entry.entered)
            : json(area.nullForUndefined ? (result ?? null) : result);
      return withHeaders(response, entry.headers);
    } catch (e) {
      return withHeaders(toErrorResponse(e), entry.headers);
    }
  };
  const declared: DeclaredRoute = { path, caller, operations, ...(permission !== undefined ? { permission } : {}) };
  return { loader: dispatch, action: dispatch, declared };
}

// ---------------------------------------------------------------------------------------------
// Declaration pieces that route modules of both areas share

/** Path parameters: one string each, by its name in the path, with the words the document shows. */
export function pathParams<K extends string>(described: Record<K, string>) {
  const shape = Object.fromEntries(Object.entries(described).map(([k, d]) => [k, z.string().describe(d as string)]));
  return z.object(shape as Record<K, z.ZodString>);
}

/**
 * An operation on one resource named by a path parameter (an id or a slug): the parameter, the
 * answer (200 unless `status` says otherwise) and the errors (404 for an unknown or another
 * tenant's resource, unless `errors` lists more).
 */
export function oneBy<K extends string, S extends z.ZodType>(
  name: K,
  description: string,
  schema: S,
  { status = 200, errors = [404] }: { status?: number; errors?: number[] } = {},
) {
  return {
    params: pathParams({ [name]: description } as Record<K, string>),
    answer: { status, schema },
    errors,
  };
}

/** A list's page limits, its answer (`{ data, total, page, limit }`, contract 6) and its 400 for a bad page or limit. */
export function paged<S extends z.ZodType>(schema: S, page: PageLimits) {
  return { page, answer: { status: 200, schema }, errors: [400] };
}

/**
 * Makes an area's `listed()`: a list handler that gets one page of rows from `rows`, serializes each
 * (with the handler's arguments at hand) and answers the contract's page. Typed by the area's
 * arguments (`Args`), like its `operation()`.
 */
export function listedOf<Args, Cursors extends boolean = false>() {
  type ListArgs = Omit<Args, "params"> & { page: Pagination };
  type Answer<T> = { data: T[]; total: number; page: number; limit: number } & (Cursors extends true
    ? { nextCursor: string | null }
    : object);
  return function listed<R, T>(
    rows: (args: ListArgs) => Promise<{ rows: R[]; total: number; nextCursor?: string | null; page?: number }>,
    serialize: (row: R, args: ListArgs) => T,
  ) {
    return async (args: ListArgs): Promise<Answer<T>> => {
      const found = await rows(args);
      const data = found.rows.map((row) => serialize(row, args));
      // an area whose lists page by cursor answers `nextCursor` on every list (contract 6)
      return args.page.cursor
        ? (cursorPaginated(data, { ...found, nextCursor: found.nextCursor ?? null }, args.page) as unknown as Answer<T>)
        : (paginated(data, found.total, args.page) as Answer<T>);
    };
  };
}

// ---------------------------------------------------------------------------------------------
// The OpenAPI side

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
