/**
 * What a JSON operation declares (issue 23, decision 025): its method, words, caller, scope, path,
 * parameters, body and answer as zod schemas, pagination limits and error statuses; and a route
 * module's declarations as both the dispatcher (operations.server.ts) and the OpenAPI writer
 * (openapi-writer.server.ts) read them.
 */
import { z } from "zod";

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

export type Fields = z.ZodObject;
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
