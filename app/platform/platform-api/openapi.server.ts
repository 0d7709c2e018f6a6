/**
 * The OpenAPI 3.1 document of the platform's own JSON areas ("Platform API": /merchant and
 * /review), collected from the operations their route modules declare (decision 025), as the App
 * API's is. Served at /developer/openapi.json and linked from the portal's docs.
 */
import { openApiPaths, type DeclaredOperation, type DeclaredRoute } from "../core/operations.server";
import "./schemas";

const ERROR_TEXT: Record<number, string> = {
  400: "Bad input: the message names the field",
  401: "Missing, malformed or expired account token",
  403: "The account's role may not call this, or the action is not allowed (the message says why)",
  404: "Not found (also for another business's or another developer's ids)",
  409: "Conflict with the current state",
  413: "Body over 1 MiB",
};

const ROLE_WORDS: Record<string, string> = { MERCHANT: "a merchant account", REVIEWER: "a reviewer account (platform staff)", DEVELOPER: "a developer account" };

const cache = new WeakMap<DeclaredRoute[], ReturnType<typeof openApiPaths>>();

export function platformApiDocument(routes: DeclaredRoute[], publicUrl: string) {
  let collected = cache.get(routes);
  if (!collected) {
    collected = openApiPaths(routes, {
      errorText: ERROR_TEXT,
      extraErrors: () => [401, 403],
      describe: (op: DeclaredOperation) => `Called by ${ROLE_WORDS[op.caller] ?? op.caller}.`,
      operationFields: (op) => ({ security: [{ accountToken: [] }], "x-caller": op.caller, ...(op.spec.page ? { "x-pagination": op.spec.page } : {}), tags: [op.path.split("/")[1]] }),
    });
    cache.set(routes, collected);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Storefront Apps — Platform API",
      version: "1.0.0",
      description:
        "The platform's own JSON endpoints for signed-in accounts: merchants manage their installations, embeds, app settings, app reviews and site pages (/merchant); reviewers work the app review queue (/review). Authenticate with the account token from `POST /auth/login` (`Authorization: Bearer <jwt>`); each operation names the role that may call it (`x-caller`). Every list answers `{data, total, page, limit}`; errors answer `{statusCode, message, error}`. Apps use the App API (/app-api/openapi.json) instead.",
    },
    servers: [{ url: publicUrl }],
    tags: [
      { name: "merchant", description: "A merchant's installations, app settings, embeds, app reviews and site pages" },
      { name: "review", description: "The app review queue (platform staff)" },
    ],
    components: {
      securitySchemes: { accountToken: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "The account token of POST /auth/login (HS256, 24 hours)" } },
      schemas: collected.components,
    },
    paths: collected.paths,
  };
}
