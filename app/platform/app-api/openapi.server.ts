/**
 * The OpenAPI 3.1 document of the App API and /webhooks, generated from the zod schemas that
 * validate requests and describe answers (schemas.ts).
 */
import { z } from "zod";
import * as S from "./schemas";
import { checkoutSchema } from "../orders/checkout-schema";
import { SCOPES } from "../apps/catalog";

type Op = {
  summary: string;
  scope?: string;
  params?: { name: string; in: "path" | "query" | "header"; description?: string; schema?: object; required?: boolean }[];
  body?: string;
  ok: { status: number; schema?: string; description?: string };
  errors: number[];
  paginated?: { limit: number; max: number };
};

const ERROR_TEXT: Record<number, string> = {
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

const id = (name: string, description: string) => ({ name, in: "path" as const, required: true, description, schema: { type: "string" } });

export const OPERATIONS: Record<string, Partial<Record<"get" | "post" | "patch" | "put" | "delete", Op>>> = {
  "/app-api/products": { get: { summary: "List products, newest first", scope: "read_products", paginated: { limit: 50, max: 100 }, ok: { status: 200, schema: "ProductList" }, errors: [400] } },
  "/app-api/products/{id}": { get: { summary: "One product", scope: "read_products", params: [id("id", "Product id")], ok: { status: 200, schema: "Product" }, errors: [404] } },
  "/app-api/products/slug/{slug}": { get: { summary: "One product by slug", scope: "read_products", params: [id("slug", "Product slug")], ok: { status: 200, schema: "Product" }, errors: [404] } },
  "/app-api/orders": {
    get: { summary: "List orders, newest first", scope: "read_orders", paginated: { limit: 20, max: 50 }, ok: { status: 200, schema: "OrderList" }, errors: [400] },
    post: {
      summary: "Create a guest order through the checkout pipeline",
      scope: "write_orders",
      params: [{ name: "Idempotency-Key", in: "header", description: "Retries with the same key and body return the first order for 24 hours", schema: { type: "string", maxLength: 255 } }],
      body: "GuestOrder",
      ok: { status: 201, schema: "Order" },
      errors: [400, 413, 422, 502],
    },
  },
  "/app-api/orders/{id}": { get: { summary: "One order", scope: "read_orders", params: [id("id", "Order id")], ok: { status: 200, schema: "Order" }, errors: [404] } },
  "/app-api/orders/{id}/status": {
    patch: { summary: "Move an order to another status (allowed moves only)", scope: "write_orders", params: [id("id", "Order id")], body: "StatusChange", ok: { status: 200, schema: "Order" }, errors: [400, 404, 409] },
  },
  "/app-api/orders/{id}/payment": {
    post: { summary: "Report the outcome of a payment the app created", scope: "write_payments", params: [id("id", "Order id")], body: "PaymentReport", ok: { status: 200, schema: "Order" }, errors: [400, 404, 409] },
  },
  "/app-api/reviews": { get: { summary: "List reviews, newest first", scope: "read_reviews", paginated: { limit: 10, max: 50 }, ok: { status: 200, schema: "ReviewList" }, errors: [400] } },
  "/app-api/reviews/stats": { get: { summary: "Review statistics", scope: "read_reviews", ok: { status: 200, schema: "ReviewStats" }, errors: [] } },
  "/app-api/analytics/dashboard": { get: { summary: "Dashboard figures (UTC days)", scope: "read_analytics", ok: { status: 200, schema: "Dashboard" }, errors: [] } },
  "/app-api/installation": { get: { summary: "The calling installation: scopes, re-consent state and the merchant's app settings", ok: { status: 200, schema: "InstallationInfo" }, errors: [] } },
  "/app-api/business": { get: { summary: "The business of the token", scope: "read_business", ok: { status: 200, schema: "Business" }, errors: [] } },
  "/app-api/pages": { get: { summary: "Site pages", scope: "read_pages", paginated: { limit: 50, max: 100 }, ok: { status: 200, schema: "PageList" }, errors: [400] } },
  "/app-api/pages/{slug}": { get: { summary: "One site page", scope: "read_pages", params: [id("slug", "Page slug")], ok: { status: 200, schema: "Page" }, errors: [404] } },
};

const wh = id("id", "Webhook id");
/** The /webhooks endpoints (contract 7): installation token, rate-limited with the App API, no scope of their own. */
export const EXTRA_OPERATIONS: typeof OPERATIONS = {
  "/webhooks": {
    get: { summary: "List the installation's webhook registrations (no secrets)", paginated: { limit: 50, max: 100 }, ok: { status: 200, schema: "WebhookList" }, errors: [400] },
    post: { summary: "Register a webhook; the answer carries its secret, once", body: "WebhookCreate", ok: { status: 201, schema: "WebhookCreated" }, errors: [400, 403, 413] },
  },
  "/webhooks/{id}": {
    get: { summary: "One registration", params: [wh], ok: { status: 200, schema: "Webhook" }, errors: [404] },
    patch: { summary: "Change a registration; isActive true re-activates it", params: [wh], body: "WebhookUpdate", ok: { status: 200, schema: "Webhook" }, errors: [400, 403, 404] },
    delete: { summary: "Delete a registration (not the install registration: deactivate that)", params: [wh], ok: { status: 204, description: "Deleted" }, errors: [404, 409] },
  },
  "/webhooks/{id}/deliveries": { get: { summary: "The delivery log, newest first", params: [wh], paginated: { limit: 50, max: 100 }, ok: { status: 200, schema: "DeliveryList" }, errors: [400, 404] } },
  "/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
    post: { summary: "A new attempt with the same X-Service-Event-Id", params: [wh, id("deliveryId", "Delivery id")], ok: { status: 202, schema: "Redelivery" }, errors: [404] },
  },
  "/webhooks/{id}/test": { post: { summary: "Send webhook.test now: one attempt, no retries, even when inactive", params: [wh], ok: { status: 200, schema: "WebhookTestResult" }, errors: [404] } },
};

function schemas() {
  z.globalRegistry.add(checkoutSchema, { id: "GuestOrder" });
  const generated = z.toJSONSchema(z.globalRegistry, { uri: (name) => `#/components/schemas/${name}`, unrepresentable: "any" }) as { schemas: Record<string, Record<string, unknown>> };
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, schema] of Object.entries(generated.schemas)) {
    const { $schema: _s, $id: _i, ...rest } = schema;
    out[name] = rest;
  }
  return out;
}

let cached: Record<string, unknown> | null = null;

export function openApiDocument(publicUrl: string) {
  const components = cached ?? (cached = schemas());
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, ops] of Object.entries({ ...OPERATIONS, ...EXTRA_OPERATIONS })) {
    paths[path] = {};
    for (const [method, op] of Object.entries(ops)) {
      if (!op) continue;
      const parameters = [...(op.params ?? [])];
      if (op.paginated)
        parameters.push(
          { name: "page", in: "query", required: false, description: "Page number, from 1", schema: { type: "integer", minimum: 1, default: 1 } },
          { name: "limit", in: "query", required: false, description: `Page size; above ${op.paginated.max} it is clamped to ${op.paginated.max}`, schema: { type: "integer", minimum: 1, default: op.paginated.limit } },
        );
      const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
      const responses: Record<string, unknown> = {
        [op.ok.status]: {
          description: op.ok.description ?? "OK",
          headers: { "X-RateLimit-Limit": { $ref: "#/components/headers/RateLimitLimit" }, "X-RateLimit-Remaining": { $ref: "#/components/headers/RateLimitRemaining" }, "X-RateLimit-Reset": { $ref: "#/components/headers/RateLimitReset" } },
          ...(op.ok.schema ? { content: { "application/json": { schema: ref(op.ok.schema) } } } : {}),
        },
      };
      for (const status of [...new Set([...op.errors, 401, ...(op.scope ? [403] : []), 429])].sort())
        responses[status] = { description: ERROR_TEXT[status], content: { "application/json": { schema: ref("Error") } } };
      paths[path][method] = {
        summary: op.summary,
        description: op.scope ? `Needs the \`${op.scope}\` scope (${SCOPES[op.scope as keyof typeof SCOPES] ?? ""}).` : path.startsWith("/webhooks") ? "Needs no scope; each event needs the scope that grants it (403 otherwise)." : "Needs no scope.",
        operationId: `${method}${path.replace(/[{}]/g, "").replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
        security: [{ installationToken: [] }],
        ...(parameters.length ? { parameters } : {}),
        ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: ref(op.body) } } } } : {}),
        responses,
      };
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Storefront Apps — App API",
      version: "1.0.0",
      description:
        "Read and write a merchant's data as an installed app. Authenticate with the installation's access token (`Authorization: Bearer fbat_…`). Every list answers `{data, total, page, limit}`; errors answer `{statusCode, message, error}`. 60 requests per minute per installation, shared by /app-api and /webhooks.",
    },
    servers: [{ url: publicUrl }],
    components: {
      securitySchemes: { installationToken: { type: "http", scheme: "bearer", description: "The installation's access token, fbat_…" } },
      headers: {
        RateLimitLimit: { description: "Requests allowed per minute", schema: { type: "integer" } },
        RateLimitRemaining: { description: "Requests left in the current window", schema: { type: "integer" } },
        RateLimitReset: { description: "Unix time (seconds) when the window resets", schema: { type: "integer" } },
      },
      schemas: components,
    },
    paths,
  };
}
