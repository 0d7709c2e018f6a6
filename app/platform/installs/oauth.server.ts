/**
 * OAuth 2.0 authorization code flow with PKCE (S256) for installing apps (contract section 4).
 */
import { may, memberOf, missingPermissionMessage } from "../accounts/permissions";
import { createHash } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "../../../db/client";
import { apps, installations, oauthCodes, type Account, type App } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { newId, randomToken } from "../core/ids.server";
import { now } from "../core/clock.server";
import { ApiError } from "../core/http.server";
import { sha256 } from "../core/crypto.server";
import { verifyClientCredentials } from "../apps/apps.server";
import { createInstallation, getActiveInstallation, issueAccessToken, webhookSecretOf } from "./installs.server";

export const CODE_TTL_MS = 10 * 60 * 1000;

/**
 * An error shown on our own page: never a redirect (unknown client, wrong redirect_uri…). A refusal
 * like any other (ApiError), so that the consent form's helper shows it as it shows every form's.
 */
export class OAuthPageError extends ApiError {}

/** An error reported to the app's (verified) redirect_uri. */
export class OAuthRedirectError extends Error {
  constructor(public location: string) {
    super("redirect");
  }
}

/** An RFC 6749 token endpoint error. */
export class OAuthTokenError extends Error {
  constructor(
    public status: number,
    public error: string,
    public description: string,
  ) {
    super(description);
  }
}

export type AuthorizeRequest = {
  app: App;
  redirectUri: string;
  scopes: string[];
  state: string | null;
  codeChallenge: string | null;
};

export function redirectWith(redirectUri: string, params: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return url.toString();
}

/**
 * Checks an authorize request. client_id and redirect_uri first (page errors); then the other
 * parameters, whose errors go back to the app.
 */
export async function parseAuthorizeRequest(db: Database, params: URLSearchParams): Promise<AuthorizeRequest> {
  const clientId = params.get("client_id");
  const redirectUri = params.get("redirect_uri");
  if (!clientId) throw new OAuthPageError(400, "The link is missing client_id.");
  const [app] = await db.select().from(apps).where(eq(apps.clientId, clientId));
  if (!app) throw new OAuthPageError(400, "This link names an app that does not exist.");
  if (!redirectUri || redirectUri !== app.redirectUrl)
    throw new OAuthPageError(400, "The redirect_uri of this link is not the one registered for the app.");
  const state = params.get("state");
  const fail = (error: string, description: string) =>
    new OAuthRedirectError(redirectWith(redirectUri, { error, error_description: description, state }));
  if (params.get("response_type") !== "code") throw fail("unsupported_response_type", "response_type must be code");
  const challenge = params.get("code_challenge");
  const method = params.get("code_challenge_method");
  if (challenge !== null) {
    if (method !== "S256") throw fail("invalid_request", "code_challenge_method must be S256");
    if (!/^[A-Za-z0-9_-]{43,128}$/.test(challenge)) throw fail("invalid_request", "code_challenge is malformed");
  } else if (method !== null) throw fail("invalid_request", "code_challenge_method without code_challenge");
  const allowed = app.status === "APPROVED" ? app.approvedScopes : app.scopes;
  const scopeParam = params.get("scope");
  const scopes =
    scopeParam === null || scopeParam.trim() === "" ? allowed : [...new Set(scopeParam.trim().split(/[\s,]+/))];
  const unknown = scopes.filter((s) => !allowed.includes(s));
  if (unknown.length) throw fail("invalid_scope", `not granted to this app: ${unknown.join(" ")}`);
  return { app, redirectUri, scopes, state, codeChallenge: challenge };
}

/**
 * Who may authorize: a merchant (their business) or a developer (their sandbox); a draft only by its
 * own developer, as a test install. Any developer may install anyone's APPROVED app on their sandbox
 * (contract 4; decision 054, Shopify's development stores): a production installation that counts
 * nowhere (not in the marketplace's installs nor the app's analytics, no review, test charges only).
 */
export function installTarget(
  account: Account,
  app: App,
): { businessId: string; isTestInstall: boolean; sandbox: boolean } {
  if (account.role === "REVIEWER" || !account.businessId)
    throw new OAuthPageError(403, "Sign in with a merchant account to install apps.");
  // installing is the `apps` permission of a business's member (contract 17)
  if (!may(memberOf(account), "apps")) throw new OAuthPageError(403, missingPermissionMessage("apps"));
  if (app.status !== "APPROVED") {
    if (account.role !== "DEVELOPER" || app.developerId !== account.id)
      throw new OAuthPageError(
        403,
        "This app is not published yet. Only its developer can install it, on their sandbox.",
      );
    return { businessId: account.businessId, isTestInstall: true, sandbox: true };
  }
  return { businessId: account.businessId, isTestInstall: false, sandbox: account.role === "DEVELOPER" };
}

/**
 * Approve: installs the app (or keeps the existing installation) and returns the redirect with a
 * single-use code bound to client, redirect_uri and PKCE challenge.
 */
export async function approveAuthorization(
  db: Database,
  env: Env,
  account: Account,
  req: AuthorizeRequest,
  ip: string | null = null,
): Promise<string> {
  const target = installTarget(account, req.app);
  const code = randomToken(32);
  // Two "Install" clicks at once, or a click racing an uninstall: the active installation's row is
  // locked (an uninstall waits for this code to be written, and then the exchange says the
  // installation is gone); when there is none, the first click creates it and a second one, waiting
  // on the unique index, is sent round again to use it. Every click gets a code for the one installation.
  await withRetryOnce(async () =>
    db.transaction(async (tx) => {
      let installation = await getActiveInstallation(tx, req.app.id, target.businessId, { lock: true });
      if (!installation) {
        ({ installation } = await createInstallation(
          tx,
          env,
          {
            app: req.app,
            businessId: target.businessId,
            scopes: req.scopes,
            isTestInstall: target.isTestInstall,
            installedBy: account.id,
          },
          { by: { account, ip } },
        ));
      }
      await tx.insert(oauthCodes).values({
        id: newId("code"),
        codeHash: sha256(code),
        appId: req.app.id,
        accountId: account.id,
        businessId: target.businessId,
        redirectUri: req.redirectUri,
        scopes: req.scopes,
        codeChallenge: req.codeChallenge,
        expiresAt: new Date(now().getTime() + CODE_TTL_MS),
        installationId: installation.id,
        createdAt: now(),
      });
    }),
  );
  return redirectWith(req.redirectUri, { code, state: req.state });
}

/** Runs `work` again once when it lost a race for the one active installation (409 from createInstallation). */
async function withRetryOnce<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof ApiError && e.status === 409) return work();
    throw e;
  }
}

export function denyAuthorization(req: AuthorizeRequest): string {
  return redirectWith(req.redirectUri, { error: "access_denied", state: req.state });
}

/** Client credentials from `Authorization: Basic`, in either RFC 6749 2.3.1 form. */
export function parseBasicAuth(header: string | null): { clientId: string; clientSecret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? "");
  if (!match) return null;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  const unescape = (v: string) => {
    try {
      return decodeURIComponent(v.replace(/\+/g, " "));
    } catch {
      return v;
    }
  };
  const clientId = unescape(decoded.slice(0, colon));
  const clientSecret = unescape(decoded.slice(colon + 1));
  // a NUL cannot be looked up in PostgreSQL text; no client id or secret contains one
  if (clientId.includes("\u0000") || clientSecret.includes("\u0000")) return null;
  return { clientId, clientSecret };
}

export type TokenRequest = { grant_type?: string; code?: string; redirect_uri?: string; code_verifier?: string };

/** The token exchange. A second use of a code also revokes the token first issued from it. */
export async function exchangeCode(db: Database, env: Env, basic: string | null, body: TokenRequest) {
  const credentials = parseBasicAuth(basic);
  if (!credentials)
    throw new OAuthTokenError(401, "invalid_client", "Client authentication with HTTP Basic is required");
  const app = await verifyClientCredentials(db, credentials.clientId, credentials.clientSecret);
  if (!app) throw new OAuthTokenError(401, "invalid_client", "Unknown client or wrong client secret");
  if (body.grant_type !== "authorization_code")
    throw new OAuthTokenError(
      400,
      body.grant_type ? "unsupported_grant_type" : "invalid_request",
      "grant_type must be authorization_code",
    );
  if (!body.code || typeof body.code !== "string")
    throw new OAuthTokenError(400, "invalid_request", "code is required");
  if (!body.redirect_uri || typeof body.redirect_uri !== "string")
    throw new OAuthTokenError(400, "invalid_request", "redirect_uri is required");

  return db.transaction(async (tx) => {
    const [code] = await tx
      .select()
      .from(oauthCodes)
      .where(eq(oauthCodes.codeHash, sha256(body.code!)))
      .for("update");
    const invalid = (why: string) => new OAuthTokenError(400, "invalid_grant", why);
    if (!code || code.appId !== app.id) throw invalid("The code is invalid");
    if (code.usedAt) {
      // replay: revoke what the first exchange issued
      if (code.issuedTokenHash)
        await tx
          .update(installations)
          .set({ accessTokenHash: null })
          .where(
            and(eq(installations.id, code.installationId!), eq(installations.accessTokenHash, code.issuedTokenHash)),
          );
      return { replayed: true as const };
    }
    if (code.expiresAt.getTime() <= now().getTime()) throw invalid("The code has expired");
    if (code.redirectUri !== body.redirect_uri) throw invalid("redirect_uri does not match the authorization request");
    if (code.codeChallenge) {
      if (!body.code_verifier || typeof body.code_verifier !== "string") throw invalid("code_verifier is required");
      const computed = createHash("sha256").update(body.code_verifier).digest("base64url");
      if (computed !== code.codeChallenge) throw invalid("code_verifier does not match the code_challenge");
    }
    const [installation] = await tx
      .select()
      .from(installations)
      .where(eq(installations.id, code.installationId!))
      .for("update");
    if (!installation || installation.status !== "ACTIVE") throw invalid("The installation no longer exists");
    // re-authorizing keeps the installation, clears re-consent and grants the authorized scopes
    const scopes = [...new Set(code.scopes)];
    const [updated] = await tx
      .update(installations)
      .set({ scopes, needsReConsent: false })
      .where(eq(installations.id, installation.id))
      .returning();
    const token = await issueAccessToken(tx, updated);
    await tx
      .update(oauthCodes)
      .set({ usedAt: now(), issuedTokenHash: sha256(token) })
      .where(and(eq(oauthCodes.id, code.id), isNull(oauthCodes.usedAt)));
    return {
      replayed: false as const,
      response: {
        access_token: token,
        token_type: "Bearer",
        scope: scopes.join(" "),
        installation_id: updated.id,
        business_id: updated.businessId,
        webhook_secret: webhookSecretOf(updated, env),
      },
    };
  });
}
