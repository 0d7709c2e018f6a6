import type { ActionFunctionArgs } from "@remix-run/node";
import { ApiError, readBodyText } from "~/platform/core/http.server";
import { exchangeCode, OAuthTokenError, type TokenRequest } from "~/platform/installs/oauth.server";

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
  if (type.includes("application/json")) {
    const parsed = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new SyntaxError("not an object");
    return parsed;
  }
  return Object.fromEntries(new URLSearchParams(text)) as TokenRequest;
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
    if (result.replayed) return oauthError(400, "invalid_grant", "The code was already used; the token issued from it has been revoked");
    return new Response(JSON.stringify(result.response), { status: 200, headers: { "Content-Type": "application/json; charset=utf-8", ...NO_STORE } });
  } catch (e) {
    if (e instanceof OAuthTokenError) return oauthError(e.status, e.error, e.description, e.status === 401 ? { "WWW-Authenticate": 'Basic realm="oauth"' } : {});
    console.error("[oauth] token exchange failed", e);
    return oauthError(500, "server_error", "Internal server error");
  }
}

export const loader = () => oauthError(405, "invalid_request", "Use POST", { Allow: "POST" });
