/**
 * OAuth 2.0 helpers (contract 4): the authorize URL with PKCE (S256) and state, the code
 * exchange with HTTP Basic client authentication, and the session-token verifier for admin pages
 * and editor blocks (contract 10).
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { jwtVerify, errors as joseErrors } from "jose";

export interface AuthorizeRequest {
  /** The URL to send the merchant to. */
  url: string;
  /** Keep (server side, e.g. in a signed cookie) and compare on the way back. */
  state: string;
  /** Keep and send with the code exchange. */
  codeVerifier: string;
}

const b64url = (buffer: Buffer) => buffer.toString("base64url");

/** A PKCE verifier and its S256 challenge. */
export function pkcePair(): { codeVerifier: string; codeChallenge: string } {
  const codeVerifier = b64url(randomBytes(32));
  return { codeVerifier, codeChallenge: b64url(createHash("sha256").update(codeVerifier).digest()) };
}

/** Builds `/oauth/authorize?...` with a fresh state and a PKCE S256 challenge. */
export function authorizeUrl(options: {
  platformUrl: string;
  clientId: string;
  redirectUri: string;
  scopes?: string[];
  state?: string;
}): AuthorizeRequest {
  const { codeVerifier, codeChallenge } = pkcePair();
  const state = options.state ?? b64url(randomBytes(16));
  const url = new URL("/oauth/authorize", options.platformUrl);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", options.clientId);
  url.searchParams.set("redirect_uri", options.redirectUri);
  if (options.scopes?.length) url.searchParams.set("scope", options.scopes.join(" "));
  url.searchParams.set("state", state);
  url.searchParams.set("code_challenge", codeChallenge);
  url.searchParams.set("code_challenge_method", "S256");
  return { url: url.toString(), state, codeVerifier };
}

/** Compares the state that came back with the one kept, in constant time. */
export function checkState(expected: string, received: string | null | undefined): boolean {
  if (!received) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(received);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  scope: string;
  installation_id: string;
  business_id: string;
  webhook_secret: string;
}

export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message?: string,
  ) {
    super(message ?? `token endpoint answered ${status} ${error}`);
    this.name = "OAuthError";
  }
}

/** Exchanges an authorization code at `/oauth/token` (client id and secret as HTTP Basic). */
export async function exchangeCode(options: {
  platformUrl: string;
  clientId: string;
  clientSecret: string;
  code: string;
  redirectUri: string;
  codeVerifier?: string;
  fetch?: typeof fetch;
}): Promise<TokenResponse> {
  const basic = Buffer.from(
    `${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`,
  ).toString("base64");
  const body = new URLSearchParams({
    grant_type: "authorization_code",
    code: options.code,
    redirect_uri: options.redirectUri,
  });
  if (options.codeVerifier) body.set("code_verifier", options.codeVerifier);
  const res = await (options.fetch ?? fetch)(new URL("/oauth/token", options.platformUrl), {
    method: "POST",
    headers: {
      Authorization: `Basic ${basic}`,
      "Content-Type": "application/x-www-form-urlencoded",
      Accept: "application/json",
    },
    body,
  });
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok)
    throw new OAuthError(
      res.status,
      String(json.error ?? "error"),
      typeof json.error_description === "string" ? json.error_description : undefined,
    );
  return json as unknown as TokenResponse;
}

/** A permission of a business's member (contract 17). */
export type StaffPermission = "orders" | "products" | "pages" | "apps" | "billing" | "privacy" | "settings" | "staff";

export interface SessionClaims {
  /** The account id of the person looking. */
  sub: string;
  businessId: string;
  /** The person owns the business (every permission). */
  owner: boolean;
  /** What the person may use in the business (every permission for the owner): hide what they may not do. */
  permissions: StaffPermission[];
  /** The person's name, to greet them. */
  name?: string;
  aud: string;
  exp: number;
  iat?: number;
  [claim: string]: unknown;
}

export class SessionTokenError extends Error {
  constructor(
    readonly code: "expired" | "bad_token",
    message: string,
  ) {
    super(message);
    this.name = "SessionTokenError";
  }
}

const ALL_PERMISSIONS: StaffPermission[] = [
  "orders",
  "products",
  "pages",
  "apps",
  "billing",
  "privacy",
  "settings",
  "staff",
];

/**
 * Whether the person of a verified session token may use what `permission` covers (contract 17):
 * `if (!mayUse(claims, "orders")) hide the orders panel`. The owner may use everything.
 */
export const mayUse = (claims: Pick<SessionClaims, "owner" | "permissions">, permission: StaffPermission): boolean =>
  claims.owner || claims.permissions.includes(permission);

/**
 * Verifies the `sessionToken` an admin page (service:init) or an editor block
 * (SERVICE_BLOCK_INIT) receives: HS256, signed with the app's client secret, aud = clientId,
 * with sub and businessId, and the person: `owner`, `permissions` and `name` (contract 17). Send it from the browser to your backend and verify it there.
 */
export async function verifySessionToken(
  token: string,
  options: { clientId: string; clientSecret: string; clockToleranceSeconds?: number },
): Promise<SessionClaims> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(options.clientSecret), {
      algorithms: ["HS256"],
      audience: options.clientId,
      clockTolerance: options.clockToleranceSeconds ?? 5,
      requiredClaims: ["exp", "sub"],
    });
    if (typeof payload.businessId !== "string")
      throw new SessionTokenError("bad_token", "session token has no businessId");
    // tokens from before contract 17 carried no person: read as the business's owner
    return {
      ...payload,
      owner: typeof payload.owner === "boolean" ? payload.owner : true,
      permissions: Array.isArray(payload.permissions) ? payload.permissions : [...ALL_PERMISSIONS],
    } as SessionClaims;
  } catch (error) {
    if (error instanceof SessionTokenError) throw error;
    if (error instanceof joseErrors.JWTExpired) throw new SessionTokenError("expired", "session token expired");
    throw new SessionTokenError("bad_token", `session token refused: ${(error as Error).message}`);
  }
}
