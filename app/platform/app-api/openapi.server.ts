/**
 * The OpenAPI 3.1 document of the App API and /webhooks, collected from the operations their route
 * modules declare (decision 025; `app/operations.server.ts` lists the modules). Nothing here names
 * an operation: summaries, scopes, parameters, bodies, answers, limits and error statuses all come
 * from the declarations; this module adds what every App API operation shares (the installation
 * token, the rate-limit headers, 401 and 429).
 */
import { SCOPES } from "../apps/catalog";
import {
  openApiDocumentOf,
  type DeclaredOperation,
  type DeclaredRoute,
  type DocumentArea,
} from "../core/operations.server";
import "./schemas";
import { versionIndex } from "../versions/registry";
import { VERSIONING } from "./version-changes";

export const APP_API_ERROR_TEXT: Record<number, string> = {
  400: "Bad input: the message names the field",
  401: "Missing, unknown or revoked access token",
  403: "The installation lacks the scope named in the message",
  404: "Not found (also for another business's ids)",
  409: "Conflict with the current state",
  413: "Body over 1 MiB",
  422: "Rejected by the checkout pipeline, or an Idempotency-Key reused with another body",
  429: "Rate limit exceeded; see Retry-After",
  502: "The payment app failed; the order was cancelled",
};

function describe(op: DeclaredOperation) {
  const scope = op.spec.scope;
  if (scope) return `Needs the \`${scope}\` scope (${SCOPES[scope as keyof typeof SCOPES] ?? ""}).`;
  return op.path.startsWith("/webhooks")
    ? "Needs no scope; each event needs the scope that grants it (403 otherwise)."
    : "Needs no scope.";
}

const API_VERSION_HEADER = { "Api-Version": { $ref: "#/components/headers/ApiVersion" } };
const RATE_LIMIT_HEADERS = {
  "X-RateLimit-Limit": { $ref: "#/components/headers/RateLimitLimit" },
  "X-RateLimit-Remaining": { $ref: "#/components/headers/RateLimitRemaining" },
  "X-RateLimit-Reset": { $ref: "#/components/headers/RateLimitReset" },
};

/** What every App API operation shares in the document: the installation token, the scope, 401 and 429, the rate-limit headers. */
const APP_API_AREA: DocumentArea = {
  errorText: APP_API_ERROR_TEXT,
  extraErrors: (op) => [401, ...(op.spec.scope ? [403] : []), 429],
  describe,
  operationFields: (op) => ({
    security: [{ installationToken: [] }],
    ...(op.spec.scope ? { "x-scope": op.spec.scope } : {}),
    ...(op.spec.page ? { "x-pagination": op.spec.page } : {}),
  }),
  // every answer names its API version; every one after the token's check also carries the window's
  // figures (app-api/wrapper.server.ts): all but 401
  headersFor: (status) => (status === 401 ? API_VERSION_HEADER : { ...API_VERSION_HEADER, ...RATE_LIMIT_HEADERS }),
};

/** The routes with only the operations that exist in `version` (`since`), made once per version: the paths are collected once per list. */
const routesByVersion = new Map<string, { of: DeclaredRoute[]; routes: DeclaredRoute[] }>();
function routesIn(routes: DeclaredRoute[], version: string) {
  let entry = routesByVersion.get(version);
  if (!entry || entry.of !== routes) {
    const kept = routes
      .map((r) => ({
        ...r,
        operations: Object.fromEntries(
          Object.entries(r.operations).filter(([, op]) => !op.since || versionIndex(op.since) <= versionIndex(version)),
        ),
      }))
      .filter((r) => Object.keys(r.operations).length > 0);
    routesByVersion.set(version, (entry = { of: routes, routes: kept }));
  }
  return entry.routes;
}

/**
 * The App API's document in one API version (contract 12): the operations that exist in it, and
 * the schemas of the newest version taken down by the declared version changes (version-changes.ts).
 */
export function openApiDocument(routes: DeclaredRoute[], publicUrl: string, version: string) {
  const doc = newestShapeDocument(routesIn(routes, version), publicUrl);
  return {
    ...doc,
    info: { ...doc.info, version },
    "x-api-version": version,
    components: { ...doc.components, schemas: VERSIONING.components(doc.components.schemas, version) },
  };
}

function newestShapeDocument(routes: DeclaredRoute[], publicUrl: string) {
  return openApiDocumentOf(routes, APP_API_AREA, {
    title: "Storefront Apps — App API",
    description:
      "Read and write a merchant's data as an installed app. This document describes one dated API version (`info.version`; `?version=` picks another supported one, `GET /app-api/versions` lists them); a request is answered in the app's pinned version unless it sends `Api-Version: <version>`, and every answer names its version in `Api-Version`. Authenticate with the installation's access token (`Authorization: Bearer fbat_…`). Every list answers `{data, total, page, limit}`; errors answer `{statusCode, message, error}`. 60 requests per minute per installation, shared by /app-api and /webhooks. Each operation names the scope it needs (`x-scope`) and, for lists, its page sizes (`x-pagination`: `limit` by default, `max` at most).",
    publicUrl,
    components: {
      securitySchemes: {
        installationToken: { type: "http", scheme: "bearer", description: "The installation's access token, fbat_…" },
      },
      headers: {
        ApiVersion: { description: "The API version the answer is in (contract 12)", schema: { type: "string" } },
        RateLimitLimit: { description: "Requests allowed per minute", schema: { type: "integer" } },
        RateLimitRemaining: { description: "Requests left in the current window", schema: { type: "integer" } },
        RateLimitReset: { description: "Unix time (seconds) when the window resets", schema: { type: "integer" } },
      },
    },
  });
}
