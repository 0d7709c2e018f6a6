/**
 * The OpenAPI 3.1 document of the App API and /webhooks, collected from the operations their route
 * modules declare (decision 025; `app/operations.server.ts` lists the modules). Nothing here names
 * an operation: summaries, scopes, parameters, bodies, answers, limits and error statuses all come
 * from the declarations; this module adds what every App API operation shares (the installation
 * token, the rate-limit headers, 401 and 429).
 */
import { EVENTS, isSubscribable, SCOPES, type EventName } from "../shapes/app-catalog";
import {
  openApiDocumentOf,
  type DeclaredOperation,
  type DeclaredRoute,
  type DeclaredWebhook,
  type DocumentArea,
} from "../core/operations.server";
import { DELIVERY_HEADERS, EVENT_DATA, EVENT_ENVELOPES } from "../shapes/events";
import { HOOK_CALLS, HOOK_ENVELOPES, HOOK_HEADERS } from "../shapes/hooks";
import { HOOK_SCOPES, type HookPoint } from "../shapes/manifest";
import "../shapes/api";
import { versionIndex } from "../versions/registry";
import { VERSIONING } from "../versions/changes";

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

const pascal = (name: string) =>
  name
    .split(/[._]/)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("");

const RETRIED =
  "Any other status, or no answer within 10 s, fails the attempt: it is retried 30 s, 2 min, 8 min, 32 min and 2 h later, with the same X-Service-Event-Id.";

/**
 * The document's `webhooks` section (contract 14): one entry per event (the delivery's envelope with
 * the event's data, the delivery headers) and one per hook point (`hook:<point>`: the call and the
 * answer the platform accepts), from the schemas events/schemas.ts and hooks/schemas.ts declare.
 */
export const APP_API_WEBHOOKS: DeclaredWebhook[] = [
  ...(Object.keys(EVENT_DATA) as EventName[]).map((name) => {
    const scope = EVENTS[name];
    return {
      name,
      operationId: `webhook${pascal(name)}`,
      summary: EVENT_DATA[name].summary,
      description: [
        scope ? `Needs the \`${scope}\` scope.` : "Needs no scope.",
        isSubscribable(name)
          ? "Sent to each active registration subscribed to it (its `events`), signed with the registration's secret."
          : "No registration subscribes to it: the platform sends it itself.",
      ].join(" "),
      fields: {
        security: [{ webhookSignature: [] }],
        ...(scope ? { "x-scope": scope } : {}),
        "x-subscribable": isSubscribable(name),
      },
      headers: DELIVERY_HEADERS,
      body: EVENT_ENVELOPES[name],
      answers: [
        { status: "2XX", description: "Received. Deduplicate on the envelope's id." },
        { status: "401", description: `A bad signature or a stale timestamp (your handler's answer). ${RETRIED}` },
      ],
    };
  }),
  ...(Object.keys(HOOK_CALLS) as HookPoint[]).map((point) => ({
    name: `hook:${point}`,
    operationId: `hook${pascal(point)}`,
    summary: HOOK_CALLS[point].summary,
    description: `Needs the \`${HOOK_SCOPES[point]}\` scope and an active hook extension for ${point} in the manifest. Sent to the app's webhookUrl plus the hook's \`url\`, within the hook's timeout (default 5000 ms).`,
    fields: { security: [{ webhookSignature: [] }], "x-scope": HOOK_SCOPES[point], "x-hook-point": point },
    headers: HOOK_HEADERS,
    body: HOOK_ENVELOPES[point],
    answers: [
      { status: "200", description: "The answer the platform uses", schema: HOOK_CALLS[point].answer },
      {
        status: "401",
        description:
          "A bad signature or a stale timestamp (your handler's answer). Any non-2xx answer, a timeout or a body of another shape is skipped (fail-open) and logged",
      },
    ],
  })),
];

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
  webhooks: APP_API_WEBHOOKS,
  cursors: true,
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
      "Read and write a merchant's data as an installed app. This document describes one dated API version (`info.version`; `?version=` picks another supported one, `GET /app-api/versions` lists them); a request is answered in the app's pinned version unless it sends `Api-Version: <version>`, and every answer names its version in `Api-Version`. Authenticate with the installation's access token (`Authorization: Bearer fbat_…`). Every list answers `{data, total, page, limit}`; errors answer `{statusCode, message, error}`. 60 requests per minute per installation, shared by /app-api and /webhooks. Each operation names the scope it needs (`x-scope`) and, for lists, its page sizes (`x-pagination`: `limit` by default, `max` at most). The `webhooks` section describes what the platform sends your app in this version: each event's delivery (the envelope with its `data`, the headers) and each hook point's call (`hook:<point>`) with the answer it accepts.",
    publicUrl,
    components: {
      securitySchemes: {
        installationToken: { type: "http", scheme: "bearer", description: "The installation's access token, fbat_…" },
        webhookSignature: {
          type: "apiKey",
          in: "header",
          name: "X-Webhook-Signature",
          description:
            "What the platform sends your app (the `webhooks` section) is signed: sha256=<hex HMAC-SHA256 of `<X-Webhook-Timestamp>.<raw body>`> with the installation's (or registration's) webhook secret. Verify it in constant time and refuse a timestamp older than 5 minutes.",
        },
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
