import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { ApiError, describeZodError, readBodyText } from "~/platform/core/http.server";
import type { DeclaredRoute, OperationSpec } from "~/platform/core/operations.server";
import { exchangeCode, OAuthTokenError, type TokenRequest } from "~/platform/installs/oauth.server";

/**
 * The token request (RFC 6749 §4.1.3, with PKCE's code_verifier), form-encoded or JSON. Read with
 * `TokenRequestBody`, which takes any value, because whether the grant, code, redirect URI and
 * verifier are right (and of the right type) is the exchange's to say, with RFC 6749's error codes
 * (a missing grant_type is `invalid_request`, another one `unsupported_grant_type`; a code_verifier that is not text is
 * `invalid_grant` and the code stays unused). The document declares the request that succeeds
 * (`TokenRequestDocument`): the required fields and the one grant type.
 */
const TokenRequestBody = z.object({
  grant_type: z.unknown().optional(),
  code: z.unknown().optional(),
  redirect_uri: z.unknown().optional(),
  code_verifier: z.unknown().optional(),
});
const TokenRequestDocument = z
  .object({
    grant_type: z.enum(["authorization_code"]).describe("The only grant: `authorization_code`"),
    code: z.string().describe("The code the redirect brought (single use, 10 minutes)"),
    redirect_uri: z.string().describe("The app's registered redirect URL, exactly as in the authorization request"),
    code_verifier: z
      .string()
      .optional()
      .describe("PKCE (RFC 7636): required when the authorization request carried a code_challenge"),
  })
  .meta({ id: "OAuthTokenRequest" });

const TokenAnswer = z
  .object({
    access_token: z.string(),
    token_type: z.literal("Bearer"),
    scope: z.string().describe("the granted scopes, space-separated"),
    installation_id: z.string(),
    business_id: z.string(),
    webhook_secret: z.string().describe("the installation's secret for verifying webhook signatures"),
  })
  .meta({ id: "OAuthTokenAnswer" });

/** RFC 6749 §5.2's error body (not the contract's `Error`). */
const OAuthError = z
  .object({
    error: z.enum(["invalid_request", "invalid_client", "invalid_grant", "unsupported_grant_type", "server_error"]),
    error_description: z.string(),
  })
  .meta({ id: "OAuthError" });

const tokenOperation: OperationSpec = {
  summary: "Exchange an authorization code for an installation's access token",
  description:
    "Client credentials go in HTTP Basic (`client_id:client_secret`); the body is form-encoded (`application/x-www-form-urlencoded`) or JSON (`application/json`), with the same fields. Errors answer RFC 6749's `{error, error_description}` with `Cache-Control: no-store`; a second use of a code answers `invalid_grant` and revokes the token first issued from it.",
  body: TokenRequestDocument,
  bodyMediaType: ["application/x-www-form-urlencoded", "application/json"],
  answer: { status: 200, schema: TokenAnswer },
  errors: [400, 401, 405, 413],
  errorSchema: OAuthError,
};

/** Declared once (decision 025), called by an app's server with its client credentials (`CLIENT`); it reads its own form body and answers RFC 6749's errors. */
export const declared: DeclaredRoute = { path: "/oauth/token", caller: "CLIENT", operations: { POST: tokenOperation } };

const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

function oauthError(status: number, error: string, description: string, extra: Record<string, string> = {}) {
  return new Response(JSON.stringify({ error, error_description: description }), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...NO_STORE, ...extra },
  });
}

async function readTokenRequest(request: Request): Promise<TokenRequest> {
  const text = await readBodyText(request);
  const type = request.headers.get("content-type") ?? "";
  let raw: unknown;
  if (type.includes("application/json")) {
    raw = JSON.parse(text);
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new SyntaxError("not an object");
  } else raw = Object.fromEntries(new URLSearchParams(text));
  const parsed = TokenRequestBody.safeParse(raw);
  if (!parsed.success) throw new ApiError(400, describeZodError(parsed.error));
  return parsed.data as TokenRequest;
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return oauthError(405, "invalid_request", "Use POST", { Allow: "POST" });
  let body: TokenRequest;
  try {
    body = await readTokenRequest(request);
  } catch (e) {
    if (e instanceof ApiError) return oauthError(e.status, "invalid_request", e.message);
    return oauthError(400, "invalid_request", "The request body is malformed");
  }
  try {
    const result = await exchangeCode(context.db, context.env, request.headers.get("Authorization"), body);
    if (result.replayed)
      return oauthError(400, "invalid_grant", "The code was already used; the token issued from it has been revoked");
    return new Response(JSON.stringify(result.response), {
      status: 200,
      headers: { "Content-Type": "application/json; charset=utf-8", ...NO_STORE },
    });
  } catch (e) {
    if (e instanceof OAuthTokenError)
      return oauthError(
        e.status,
        e.error,
        e.description,
        e.status === 401 ? { "WWW-Authenticate": 'Basic realm="oauth"' } : {},
      );
    console.error("[oauth] token exchange failed", e);
    return oauthError(500, "server_error", "Internal server error");
  }
}

export const loader = () => oauthError(405, "invalid_request", "Use POST", { Allow: "POST" });
