/**
 * A JSON operation declared once (issue 23, decision 025): method, summary, caller, scope, path,
 * path/query/header parameters, body and answer as zod schemas, pagination limits and error
 * statuses, next to its handler in its route module. The same declaration validates the request
 * (`readInput`: the contract's 400 body naming the field, never a 500) and becomes its part of an
 * OpenAPI 3.1 document (`openApiPaths`). A route module exports its declarations with its loader and
 * action; the documents are collected from the route modules a registry imports explicitly
 * (`app/operations.server.ts`), and a test walks the route tree to keep that registry complete.
 *
 * This file reads and dispatches; the declarations' types are in operation-spec.server.ts and the
 * OpenAPI writer in openapi-writer.server.ts (both re-exported here, as before).
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
import type {
  DeclaredRoute,
  Fields,
  Method,
  OperationInput,
  OperationSpec,
  PageLimits,
  Pagination,
} from "./operation-spec.server";

export {
  METHODS,
  type DeclaredOperation,
  type DeclaredRoute,
  type Method,
  type OperationInput,
  type OperationSpec,
  type PageLimits,
  type Pagination,
} from "./operation-spec.server";
export {
  DOCUMENT_LICENSE,
  RETRY_AFTER_HEADER,
  openApiDocumentOf,
  openApiPaths,
  openApiPathsOnce,
  operationId,
  pathParamNames,
  schemaName,
  type DeclaredWebhook,
  type DocumentArea,
} from "./openapi-writer.server";

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

/** The optional Idempotency-Key request header (1-255 characters), `description` saying what a retry with it answers. */
export function idempotencyKeyHeader(description: string) {
  return z.object({
    "Idempotency-Key": z
      .string()
      .min(1, "must be 1-255 characters")
      .max(255, "must be 1-255 characters")
      .optional()
      .describe(description),
  });
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
