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
    `Called by ${TOKENLESS[op.caller]?.words ?? ROLE_WORDS[op.caller] ?? op.caller}.` +
    (op.permission ? ` A member of the business needs the \`${op.permission}\` permission.` : "") +
    (op.spec.appRole ? ` The developer needs the ${op.spec.appRole} role (or higher) on the app.` : ""),
  operationFields: (op) => ({
    security: TOKENLESS[op.caller]?.security ?? [{ accountToken: [] }],
    "x-caller": op.caller,
    // contract 17: what a business's member needs (null: any member), or the least role on the app
    ...(op.permission !== undefined ? { "x-permission": op.permission } : {}),
    ...(op.spec.appRole ? { "x-app-role": op.spec.appRole } : {}),
    ...(op.spec.page ? { "x-pagination": op.spec.page } : {}),
    tags: [op.path.split("/")[1]],
  }),
};

const html = (description: string) => ({ description, content: { "text/html": { schema: { type: "string" } } } });
const toApp = (description: string) => ({
  description,
  headers: {
    Location: {
      description: "The app's redirect_uri with `code` and `state`, or `error` (and `state`)",
      schema: { type: "string", format: "uri" },
    },
  },
});
const AUTHORIZE_PARAMS = [
  { name: "response_type", schema: { type: "string", enum: ["code"] }, required: true },
  { name: "client_id", schema: { type: "string" }, required: true, description: "The app's client id (fbci_…)" },
  {
    name: "redirect_uri",
    schema: { type: "string", format: "uri" },
    required: true,
    description: "Exactly the app's registered redirect URL",
  },
  {
    name: "scope",
    schema: { type: "string" },
    required: false,
    description: "Space-separated subset of the app's approved scopes (default: all of them)",
  },
  { name: "state", schema: { type: "string" }, required: true, description: "Returned unchanged; check it on return" },
  {
    name: "code_challenge",
    schema: { type: "string" },
    required: false,
    description: "PKCE (RFC 7636): base64url(SHA-256(code_verifier))",
  },
  { name: "code_challenge_method", schema: { type: "string", enum: ["S256"] }, required: false },
];

/**
 * The consent screen (contract 4): an HTML page, not a JSON operation, so it is written out here
 * rather than declared by a route module. Its Install and Cancel buttons post the page's own form
 * (with its CSRF token), which no app calls, so only the link apps send merchants to is described.
 * The JSON half of the flow is POST /oauth/token.
 */
const AUTHORIZE_PAGE = {
  "/oauth/authorize": {
    get: {
      summary: "The consent screen an install starts at (OAuth 2.0 authorization endpoint, an HTML page)",
      description:
        "Open it in the merchant's browser. Called by a signed-in merchant (or developer: the install lands on their sandbox). client_id and redirect_uri are checked first: a bad one shows an error page, never a redirect. The page may not be framed. Approving (Install) redirects to `redirect_uri?code=…&state=…`; Cancel to `redirect_uri?error=access_denied&state=…`; a bad scope or PKCE parameter redirects with RFC 6749's `error`.",
      operationId: "getOauthAuthorize",
      tags: ["oauth"],
      "x-caller": "MERCHANT",
      security: [],
      parameters: AUTHORIZE_PARAMS.map((p) => ({ in: "query", ...p })),
      responses: {
        200: html("The consent screen: the app, its developer, each scope in plain words, Install and Cancel"),
        302: toApp("To the sign-in page when not signed in (`/login?redirectTo=…`), or to the app with an error"),
        400: html("An error page: client_id missing or unknown, or redirect_uri not the registered one"),
        403: html("An error page: the account may not install apps (a reviewer)"),
      },
    },
  },
};
export function platformApiDocument(routes: DeclaredRoute[], publicUrl: string) {
  return openApiDocumentOf(routes, PLATFORM_AREA, {
    title: "Storefront Apps — Platform API",
    description:
      "The platform's own JSON endpoints: accounts sign up and sign in (/auth, no token); an app's server exchanges an authorization code for an installation token (/oauth/token, client credentials, form-encoded, RFC 6749 errors); developers manage their apps, manifests, test installs, sample events, the listen stream, analytics and review replies (/developer); merchants manage their installations, embeds, app settings, app reviews and site pages (/merchant); reviewers work the app review queue (/review). Authenticate with the account token from `POST /auth/login` (`Authorization: Bearer <jwt>`); each operation names who may call it (`x-caller`: a role, `ANYONE` or `CLIENT`). Every list answers `{data, total, page, limit}`; errors answer `{statusCode, message, error}` (except /oauth/token). Apps calling with an installation token use the App API (/app-api/openapi.json) instead.",
    publicUrl,
    pages: AUTHORIZE_PAGE,
    tags: [
      { name: "auth", description: "Sign up and sign in: where an account token comes from (no token needed)" },
      {
        name: "oauth",
        description:
          "The OAuth 2.0 install: the consent screen in the merchant's browser (/oauth/authorize, HTML), then the token exchange by the app's server with its client credentials (/oauth/token)",
      },
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
