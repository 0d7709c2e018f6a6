/**
 * The OpenAPI 3.1 document of the platform's own JSON areas ("Platform API": /auth, /oauth/token,
 * /developer, /merchant and /review), collected from the operations their route modules declare (decision 025), as the App
 * API's is. Served at /developer/openapi.json and linked from the portal's docs.
 */
import {
  openApiDocumentOf,
  type DeclaredOperation,
  type DeclaredRoute,
  type DocumentArea,
} from "../core/operations.server";
import "./schemas";

const ERROR_TEXT: Record<number, string> = {
  400: "Bad input: the message names the field",
  401: "Missing, malformed or expired account token (/auth/login and /oauth/token: wrong credentials)",
  403: "The account's role may not call this, or the action is not allowed (the message says why)",
  404: "Not found (also for another business's or another developer's ids)",
  409: "Conflict with the current state",
  405: "Method not allowed",
  413: "Body over 1 MiB",
  429: "Too many attempts; retry after the Retry-After header's seconds",
};

/** Who calls without an account token: anyone (/auth), or an app's server with its client credentials (/oauth/token). */
const TOKENLESS: Record<string, { words: string; security: Record<string, string[]>[]; errors: number[] }> = {
  ANYONE: { words: "anyone, without a token", security: [], errors: [] },
  CLIENT: {
    words: "an app's server, with its client credentials in HTTP Basic (no token)",
    security: [{ clientCredentials: [] }],
    errors: [],
  },
};

const ROLE_WORDS: Record<string, string> = {
  MERCHANT: "a merchant account, or a developer account for its own sandbox business (decision 036)",
  REVIEWER: "a reviewer account (platform staff)",
  DEVELOPER: "a developer account",
};

/** What the platform areas' operations share in the document: who calls them, their security, 401 and 403 for an account token. */
const PLATFORM_AREA: DocumentArea = {
  errorText: ERROR_TEXT,
  extraErrors: (op) => TOKENLESS[op.caller]?.errors ?? [401, 403],
  describe: (op: DeclaredOperation) =>
    `Called by ${TOKENLESS[op.caller]?.words ?? ROLE_WORDS[op.caller] ?? op.caller}.`,
  operationFields: (op) => ({
    security: TOKENLESS[op.caller]?.security ?? [{ accountToken: [] }],
    "x-caller": op.caller,
    ...(op.spec.page ? { "x-pagination": op.spec.page } : {}),
    tags: [op.path.split("/")[1]],
  }),
};

export function platformApiDocument(routes: DeclaredRoute[], publicUrl: string) {
  return openApiDocumentOf(routes, PLATFORM_AREA, {
    title: "Storefront Apps — Platform API",
    description:
      "The platform's own JSON endpoints: accounts sign up and sign in (/auth, no token); an app's server exchanges an authorization code for an installation token (/oauth/token, client credentials, form-encoded, RFC 6749 errors); developers manage their apps, manifests, test installs, sample events, the listen stream, analytics and review replies (/developer); merchants manage their installations, embeds, app settings, app reviews and site pages (/merchant); reviewers work the app review queue (/review). Authenticate with the account token from `POST /auth/login` (`Authorization: Bearer <jwt>`); each operation names who may call it (`x-caller`: a role, `ANYONE` or `CLIENT`). Every list answers `{data, total, page, limit}`; errors answer `{statusCode, message, error}` (except /oauth/token). Apps calling with an installation token use the App API (/app-api/openapi.json) instead.",
    publicUrl,
    tags: [
      { name: "auth", description: "Sign up and sign in: where an account token comes from (no token needed)" },
      { name: "oauth", description: "The OAuth token exchange, called by an app's server with its client credentials" },
      {
        name: "developer",
        description:
          "A developer's apps: records, client secret, manifest, submission, test installs, sample events, the listen stream, analytics and review replies",
      },
      { name: "merchant", description: "A merchant's installations, app settings, embeds, app reviews and site pages" },
      { name: "review", description: "The app review queue (platform staff)" },
    ],
    components: {
      securitySchemes: {
        accountToken: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "The account token of POST /auth/login (HS256, 24 hours)",
        },
        clientCredentials: {
          type: "http",
          scheme: "basic",
          description: "The app's client_id and client_secret (POST /oauth/token only)",
        },
      },
    },
  });
}
