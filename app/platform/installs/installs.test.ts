import { describe, expect, it, afterEach } from "vitest";
import { sql } from "drizzle-orm";
import * as oauth from "oauth4webapi";
import { startPlatform } from "../testing/platform";
import { BrowserSession, hiddenFields } from "../testing/browser";
import { appBody, publishedApp as publishApp } from "../apps/apps.test-helpers";
import { setClockOffset } from "../core/clock.server";
import { REVIEW_CRITERIA_KEYS } from "../shapes/app-catalog";

const p = await startPlatform();
const dev = await p.register("DEVELOPER");
const reviewer = await p.createUser("REVIEWER");
const PASSWORD = "correct horse battery";

afterEach(() => setClockOffset(0));

const publishedApp = (overrides: Record<string, unknown> = {}) =>
  publishApp(p, { developer: dev.token, reviewer: reviewer.token }, overrides);

/** The app asks for read_business too, and the update is approved: its installations need re-consent. */
async function widenScopes(app: { id: string }) {
  await p.request("PATCH", `/developer/apps/${app.id}`, {
    token: dev.token,
    body: { scopes: ["read_orders", "read_business"] },
  });
  await p.request("POST", `/developer/apps/${app.id}/submit`, { token: dev.token });
  await p.request("POST", `/review/apps/${app.id}/approve`, {
    token: reviewer.token,
    body: { criteria: REVIEW_CRITERIA_KEYS },
  });
}

async function merchantSession() {
  const m = await p.register("MERCHANT");
  return { ...m, browser: await BrowserSession.signIn(p.url, m.email, PASSWORD) };
}

/** consent() with the app's own redirect_uri (and `extra` parameters); returns the code it was given. */
async function codeFrom(browser: BrowserSession, app: { clientId: string; redirectUrl: string }, extra = {}) {
  const loc = await consent(browser, {
    response_type: "code",
    client_id: app.clientId,
    redirect_uri: app.redirectUrl,
    state: "x",
    ...extra,
  });
  return loc.searchParams.get("code")!;
}

/** Walks the consent screen like a browser; returns the Location the platform redirected to. */
async function consent(
  browser: BrowserSession,
  query: Record<string, string>,
  decision: "approve" | "deny" = "approve",
) {
  const page = await browser.get(`/oauth/authorize?${new URLSearchParams(query)}`);
  expect(page.status, page.html.slice(0, 300)).toBe(200);
  const res = await browser.post("/oauth/authorize", { ...hiddenFields(page.html), decision });
  expect(res.status).toBe(302);
  return new URL(res.location!);
}

async function exchange(
  app: { clientId: string; clientSecret: string; redirectUrl: string },
  code: string,
  extra: Record<string, string> = {},
  secret = app.clientSecret,
) {
  const res = await fetch(p.url + "/oauth/token", {
    method: "POST",
    headers: {
      Authorization: `Basic ${Buffer.from(`${app.clientId}:${secret}`).toString("base64")}`,
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: app.redirectUrl, ...extra }),
  });
  return { status: res.status, json: await res.json(), headers: res.headers };
}

async function install(app: { clientId: string; clientSecret: string; redirectUrl: string }, browser: BrowserSession) {
  const location = await consent(browser, {
    response_type: "code",
    client_id: app.clientId,
    redirect_uri: app.redirectUrl,
    state: "s1",
  });
  const res = await exchange(app, location.searchParams.get("code")!);
  expect(res.status).toBe(200);
  return res.json as {
    access_token: string;
    installation_id: string;
    business_id: string;
    webhook_secret: string;
    scope: string;
  };
}

const business = (token: string) => p.request("GET", "/app-api/business", { token });

describe("OAuth 2.0 install", () => {
  it("works end to end with an independent OAuth client (oauth4webapi, PKCE S256)", async () => {
    const app = await publishedApp({ scopes: ["read_orders", "read_business"] });
    const merchant = await merchantSession();
    const as: oauth.AuthorizationServer = {
      issuer: p.url,
      authorization_endpoint: `${p.url}/oauth/authorize`,
      token_endpoint: `${p.url}/oauth/token`,
    };
    const client: oauth.Client = { client_id: app.clientId };
    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    const state = oauth.generateRandomState();
    const authorizationUrl = new URL(as.authorization_endpoint!);
    for (const [k, v] of Object.entries({
      client_id: app.clientId,
      redirect_uri: app.redirectUrl,
      response_type: "code",
      scope: "read_orders read_business",
      state,
      code_challenge: challenge,
      code_challenge_method: "S256",
    }))
      authorizationUrl.searchParams.set(k, v);

    // the consent screen names the app, the developer and each scope in plain words, and cannot be framed
    const page = await merchant.browser.get(authorizationUrl.pathname + authorizationUrl.search);
    expect(page.html).toContain(`Install ${app.name}`);
    expect(page.html).toContain("See your orders and payments");
    expect(page.html).toContain("See your business details");
    const raw = await fetch(authorizationUrl, {
      headers: { Cookie: [...merchant.browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    expect(raw.headers.get("x-frame-options")).toBe("DENY");
    expect(raw.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");

    const post = await merchant.browser.post("/oauth/authorize", { ...hiddenFields(page.html), decision: "approve" });
    const callback = new URL(post.location!);
    expect(`${callback.origin}${callback.pathname}`).toBe(app.redirectUrl);
    expect([...callback.searchParams.keys()].sort()).toEqual(["code", "state"]);

    const params = oauth.validateAuthResponse(as, client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(app.clientSecret),
      params,
      app.redirectUrl,
      verifier,
      { [oauth.allowInsecureRequests]: true },
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.access_token).toMatch(/^fbat_(?!test_)/);
    expect(tokens.scope).toBe("read_orders read_business");
    expect(tokens.webhook_secret).toMatch(/^whsec_(?!test_)/);
    expect(tokens.business_id).toBe(merchant.businessId);

    const biz = await business(tokens.access_token);
    expect(biz.status).toBe(200);
    expect(biz.json).toMatchObject({ id: merchant.businessId });

    const list = await p.request("GET", "/merchant/installations", { token: merchant.token });
    expect(list.json.data[0]).toMatchObject({
      installationId: tokens.installation_id,
      appId: app.id,
      appName: app.name,
      status: "ACTIVE",
      scopes: ["read_orders", "read_business"],
      needsReConsent: false,
      isTestInstall: false,
      uninstalledAt: null,
      erasureScheduledAt: null,
      erasureDeliveredAt: null,
    });
  });

  it("refuses a wrong PKCE verifier", async () => {
    const app = await publishedApp();
    const merchant = await merchantSession();
    const verifier = oauth.generateRandomCodeVerifier();
    const code = await codeFrom(merchant.browser, app, {
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    });
    expect((await exchange(app, code)).json.error).toBe("invalid_grant");
    const wrong = await exchange(app, code, { code_verifier: oauth.generateRandomCodeVerifier() });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toBe("invalid_grant");
  });

  it("treats a reused code as an attack: invalid_grant, and the first token is revoked", async () => {
    const app = await publishedApp({ scopes: ["read_business"] });
    const merchant = await merchantSession();
    const code = await codeFrom(merchant.browser, app);
    const first = await exchange(app, code);
    expect(first.status).toBe(200);
    expect((await business(first.json.access_token)).status).toBe(200);
    const second = await exchange(app, code);
    expect(second.status).toBe(400);
    expect(second.json).toEqual({ error: "invalid_grant", error_description: expect.any(String) });
    expect((await business(first.json.access_token)).status).toBe(401);
  });

  it("expires codes after 10 minutes", async () => {
    const app = await publishedApp();
    const merchant = await merchantSession();
    const code = await codeFrom(merchant.browser, app);
    setClockOffset(10 * 60 * 1000 + 1000);
    const res = await exchange(app, code);
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("invalid_grant");
  });

  it("shows an error page, never a redirect, for an unknown client or a foreign redirect_uri", async () => {
    const app = await publishedApp();
    const merchant = await merchantSession();
    for (const query of [
      { response_type: "code", client_id: "fbci_unknown", redirect_uri: app.redirectUrl },
      { response_type: "code", client_id: app.clientId, redirect_uri: "https://evil.example/steal" },
      { response_type: "code", client_id: app.clientId, redirect_uri: app.redirectUrl + "/extra" },
    ]) {
      // before and after sign-in alike
      for (const browser of [new BrowserSession(p.url), merchant.browser]) {
        const res = await browser.get(`/oauth/authorize?${new URLSearchParams(query)}`);
        expect(res.status).toBe(400);
        expect(res.location).toBeNull();
        expect(res.html).toContain("This install link does not work");
      }
    }
    // the token endpoint refuses a redirect_uri that differs from the authorization request's
    const code = await codeFrom(merchant.browser, app);
    const res = await fetch(p.url + "/oauth/token", {
      method: "POST",
      headers: {
        Authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64")}`,
        "Content-Type": "application/json",
      },
      body: JSON.stringify({
        grant_type: "authorization_code",
        code,
        redirect_uri: "https://evil.example/steal",
      }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("invalid_grant");
  });

  it("reports other bad parameters to the app's redirect_uri", async () => {
    const app = await publishedApp({ scopes: ["read_orders"] });
    const merchant = await merchantSession();
    const bad = async (query: Record<string, string>) => {
      const res = await merchant.browser.get(
        `/oauth/authorize?${new URLSearchParams({ client_id: app.clientId, redirect_uri: app.redirectUrl, state: "st", ...query })}`,
      );
      expect(res.status).toBe(302);
      return new URL(res.location!);
    };
    expect((await bad({ response_type: "token" })).searchParams.get("error")).toBe("unsupported_response_type");
    const scope = await bad({ response_type: "code", scope: "read_orders write_orders" });
    expect(scope.searchParams.get("error")).toBe("invalid_scope");
    expect(scope.searchParams.get("state")).toBe("st");
    expect(
      (
        await bad({ response_type: "code", code_challenge: "x".repeat(43), code_challenge_method: "plain" })
      ).searchParams.get("error"),
    ).toBe("invalid_request");
  });

  it("sends a visitor to sign in and back to the consent screen", async () => {
    const app = await publishedApp();
    const query = new URLSearchParams({
      response_type: "code",
      client_id: app.clientId,
      redirect_uri: app.redirectUrl,
      state: "s",
    });
    const visitor = new BrowserSession(p.url);
    const res = await visitor.get(`/oauth/authorize?${query}`);
    expect(res.status).toBe(302);
    expect(res.location).toBe(`/login?redirectTo=${encodeURIComponent(`/oauth/authorize?${query}`)}`);
    const m = await p.register("MERCHANT");
    await visitor.get(res.location!);
    const signedIn = await visitor.post("/login", {
      email: m.email,
      password: PASSWORD,
      redirectTo: `/oauth/authorize?${query}`,
    });
    expect(signedIn.location).toBe(`/oauth/authorize?${query}`);
  });

  it("answers the token endpoint's client errors as RFC 6749 says", async () => {
    const app = await publishedApp();
    const merchant = await merchantSession();
    const code = await codeFrom(merchant.browser, app);
    const wrong = await exchange(app, code, {}, "fbcs_wrong");
    expect(wrong.status).toBe(401);
    expect(wrong.json.error).toBe("invalid_client");
    expect(wrong.headers.get("www-authenticate")).toMatch(/^Basic/);
    const none = await fetch(p.url + "/oauth/token", {
      method: "POST",
      body: new URLSearchParams({ grant_type: "authorization_code", code }),
    });
    expect(none.status).toBe(401);
    expect((await none.json()).error).toBe("invalid_client");
    expect((await exchange(app, code, { grant_type: "password" })).json.error).toBe("unsupported_grant_type");

    // after regeneration the old secret fails at once; the new one works, form-encoded or not
    const regenerated = await p.request("POST", `/developer/apps/${app.id}/client-secret`, { token: dev.token });
    expect((await exchange(app, code)).status).toBe(401);
    const ok = await exchange(app, code, {}, encodeURIComponent(regenerated.json.clientSecret));
    expect(ok.status).toBe(200);
  });

  it("lets the merchant cancel: access_denied, nothing installed", async () => {
    const app = await publishedApp();
    const merchant = await merchantSession();
    const loc = await consent(
      merchant.browser,
      { response_type: "code", client_id: app.clientId, redirect_uri: app.redirectUrl, state: "keep-me" },
      "deny",
    );
    expect(Object.fromEntries(loc.searchParams)).toEqual({ error: "access_denied", state: "keep-me" });
    expect((await p.request("GET", "/merchant/installations", { token: merchant.token })).json.total).toBe(0);
  });

  it("shows the error page when Install is refused after the screen was shown (the app's redirect URL changed), and installs nothing", async () => {
    const app = await publishedApp();
    const merchant = await merchantSession();
    const query = { response_type: "code", client_id: app.clientId, redirect_uri: app.redirectUrl, state: "s" };
    const page = await merchant.browser.get(`/oauth/authorize?${new URLSearchParams(query)}`);
    expect(page.html).toContain(`Install ${app.name}`);
    const moved = await p.request("PATCH", `/developer/apps/${app.id}`, {
      token: dev.token,
      body: { redirectUrl: "https://moved.example/callback" },
    });
    expect(moved.status, moved.text).toBe(200);
    const res = await merchant.browser.post("/oauth/authorize", { ...hiddenFields(page.html), decision: "approve" });
    expect(res.status).toBe(400);
    expect(res.location).toBeFalsy();
    expect(res.html).toContain("This install link does not work");
    expect(res.html).toContain("The redirect_uri of this link is not the one registered for the app.");
    expect(res.html).not.toContain(`Install ${app.name}`);
    expect((await p.request("GET", "/merchant/installations", { token: merchant.token })).json.total).toBe(0);
    // the form is CSRF-checked like every other: a wrong token is a 403 before anything is read
    expect(
      (
        await merchant.browser.post("/oauth/authorize", {
          ...hiddenFields(page.html),
          csrf: "forged",
          decision: "approve",
        })
      ).status,
    ).toBe(403);
  });

  it("lets only its own developer authorize a draft app, as a test install on the sandbox", async () => {
    const created = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody() });
    const draft = { ...created.json };
    const stranger = await merchantSession();
    const refused = await stranger.browser.get(
      `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: draft.clientId, redirect_uri: draft.redirectUrl })}`,
    );
    expect(refused.status).toBe(403);
    expect(refused.html).toContain("not published");

    const devBrowser = await BrowserSession.signIn(p.url, dev.email, PASSWORD);
    const tokens = await install(draft, devBrowser);
    expect(tokens.access_token).toMatch(/^fbat_test_/);
    expect(tokens.webhook_secret).toMatch(/^whsec_test_/);
    expect(tokens.business_id).toBe(dev.businessId);
    await p.request("POST", `/developer/apps/${draft.id}/test-uninstall`, { token: dev.token });
  });

  it("re-authorizing an installed app keeps the installation and replaces the token", async () => {
    const app = await publishedApp({ scopes: ["read_business"] });
    const merchant = await merchantSession();
    const first = await install(app, merchant.browser);
    const second = await install(app, merchant.browser);
    expect(second.installation_id).toBe(first.installation_id);
    expect(second.webhook_secret).toBe(first.webhook_secret);
    expect((await business(first.access_token)).status).toBe(401);
    expect((await business(second.access_token)).status).toBe(200);
  });

  it("starts from the marketplace's Install button", async () => {
    const app = await publishedApp();
    const merchant = await merchantSession();
    const res = await merchant.browser.get(`/marketplace/${app.slug}/install`);
    expect(res.status).toBe(302);
    const url = new URL(res.location!, p.url);
    expect(url.pathname).toBe("/oauth/authorize");
    expect(url.searchParams.get("client_id")).toBe(app.clientId);
    expect(url.searchParams.get("redirect_uri")).toBe(app.redirectUrl);
  });
});

describe("scope expansion and re-consent", () => {
  it("keeps the old scopes until the merchant approves the added ones", async () => {
    const app = await publishedApp({ scopes: ["read_orders"] });
    const merchant = await merchantSession();
    const tokens = await install(app, merchant.browser);
    expect((await business(tokens.access_token)).status).toBe(403);

    await widenScopes(app);

    const listed = await p.request("GET", "/merchant/installations", { token: merchant.token });
    expect(listed.json.data[0]).toMatchObject({ needsReConsent: true, scopes: ["read_orders"] });
    const forbidden = await business(tokens.access_token);
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.message).toContain("read_business");

    const consented = await p.request("POST", `/merchant/installations/${tokens.installation_id}/consent`, {
      token: merchant.token,
    });
    expect(consented.status).toBe(200);
    expect(consented.json).toMatchObject({ needsReConsent: false, scopes: ["read_orders", "read_business"] });
    expect((await business(tokens.access_token)).status).toBe(200);
  });

  it("re-running OAuth also clears re-consent", async () => {
    const app = await publishedApp({ scopes: ["read_orders"] });
    const merchant = await merchantSession();
    await install(app, merchant.browser);
    await widenScopes(app);
    const again = await install(app, merchant.browser);
    expect(again.scope).toBe("read_orders read_business");
    expect((await business(again.access_token)).status).toBe(200);
    const listed = await p.request("GET", "/merchant/installations", { token: merchant.token });
    expect(listed.json.data[0].needsReConsent).toBe(false);
  });
});

describe("uninstall", () => {
  it("revokes the token, deactivates webhooks, strips blocks, records the event and schedules erasure at +48 h", async () => {
    const app = await publishedApp({
      scopes: ["read_business"],
      webhookUrl: "https://loyalty.example/hooks",
      webhookEvents: ["order.created"],
    });
    const other = await publishedApp({ scopes: ["read_business"] });
    const merchant = await merchantSession();
    const tokens = await install(app, merchant.browser);
    await install(other, merchant.browser);
    const [wh] = await p.db.execute<{ is_active: boolean; events: string[]; url: string }>(
      sql`select is_active, events, url from webhooks where installation_id = ${tokens.installation_id}`,
    );
    // order.created needs read_orders, which was not granted
    expect(wh).toEqual({ is_active: true, events: [], url: "https://loyalty.example/hooks" });
    await p.db.execute(
      sql`update pages set blocks = ${JSON.stringify([
        { id: "b1", kind: "builtin", type: "heading", settings: { text: "Hi" } },
        { id: "b2", kind: "app", type: "stars", appId: app.id, settings: {} },
        { id: "b3", kind: "app", type: "other", appId: other.id, settings: {} },
      ])}::jsonb where business_id = ${merchant.businessId} and slug = 'home'`,
    );

    const res = await p.request("DELETE", `/merchant/installations/${tokens.installation_id}`, {
      token: merchant.token,
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ uninstalled: true });

    expect((await business(tokens.access_token)).status).toBe(401);
    const [after] = await p.db.execute<{ is_active: boolean }>(
      sql`select is_active from webhooks where installation_id = ${tokens.installation_id}`,
    );
    expect(after.is_active).toBe(false);
    const [page] = await p.db.execute<{ blocks: { id: string }[] }>(
      sql`select blocks from pages where business_id = ${merchant.businessId} and slug = 'home'`,
    );
    expect(page.blocks.map((b) => b.id)).toEqual(["b1", "b3"]);
    const [event] = await p.db.execute<{ data: Record<string, unknown> }>(
      sql`select data from platform_events where type = 'app.uninstalled' and business_id = ${merchant.businessId}`,
    );
    expect(event.data).toMatchObject({
      appId: app.id,
      businessId: merchant.businessId,
      installationId: tokens.installation_id,
      isTestInstall: false,
    });

    const listed = await p.request("GET", "/merchant/installations", { token: merchant.token });
    const record = listed.json.data.find(
      (i: { installationId: string }) => i.installationId === tokens.installation_id,
    );
    expect(record.status).toBe("UNINSTALLED");
    const scheduled = new Date(record.erasureScheduledAt).getTime() - new Date(record.uninstalledAt).getTime();
    expect(scheduled).toBe(48 * 3600 * 1000);
    const [job] = await p.db.execute<{ task_identifier: string; run_at: Date; key: string }>(
      sql`select task_identifier, run_at, key from graphile_worker.jobs where key = ${"erasure:" + tokens.installation_id}`,
    );
    expect(job.task_identifier).toBe("installation__erasure");
    expect(new Date(job.run_at).toISOString()).toBe(record.erasureScheduledAt);

    // a second uninstall is refused and changes nothing
    expect(
      (await p.request("DELETE", `/merchant/installations/${tokens.installation_id}`, { token: merchant.token }))
        .status,
    ).toBe(409);
  });

  it("a reinstall within 48 hours cancels the pending erasure", async () => {
    const app = await publishedApp({ scopes: ["read_business"] });
    const merchant = await merchantSession();
    const first = await install(app, merchant.browser);
    await p.request("DELETE", `/merchant/installations/${first.installation_id}`, { token: merchant.token });
    setClockOffset(47 * 3600 * 1000);
    const second = await install(app, merchant.browser);
    expect(second.installation_id).not.toBe(first.installation_id);
    const [old] = await p.db.execute<{ erasure_scheduled_at: Date | null }>(
      sql`select erasure_scheduled_at from installations where id = ${first.installation_id}`,
    );
    expect(old.erasure_scheduled_at).toBeNull();
    const jobs = await p.db.execute(
      sql`select 1 from graphile_worker.jobs where key = ${"erasure:" + first.installation_id}`,
    );
    expect(jobs).toHaveLength(0);
  });

  it("keeps tenants apart: another business's installation is 404 and untouched", async () => {
    const app = await publishedApp({ scopes: ["read_business"] });
    const a = await merchantSession();
    const b = await merchantSession();
    const tokA = await install(app, a.browser);
    const tokB = await install(app, b.browser);
    expect((await business(tokA.access_token)).json.id).toBe(a.businessId);
    expect((await business(tokB.access_token)).json.id).toBe(b.businessId);
    expect(
      (await p.request("DELETE", `/merchant/installations/${tokA.installation_id}`, { token: b.token })).status,
    ).toBe(404);
    expect(
      (await p.request("POST", `/merchant/installations/${tokA.installation_id}/consent`, { token: b.token })).status,
    ).toBe(404);
    expect((await business(tokA.access_token)).status).toBe(200);
    const listB = await p.request("GET", "/merchant/installations", { token: b.token });
    expect(listB.json.data.map((i: { installationId: string }) => i.installationId)).toEqual([tokB.installation_id]);
  });
});

describe("sandbox test installs", () => {
  it("installs, reports, works like a production token, converts on approval and uninstalls", async () => {
    const created = await p.request("POST", "/developer/apps", {
      token: dev.token,
      body: appBody({ scopes: ["read_business"] }),
    });
    const appId = created.json.id;
    expect((await p.request("GET", `/developer/apps/${appId}/test-status`, { token: dev.token })).json).toEqual({
      installed: false,
      installation: null,
    });

    const res = await p.request("POST", `/developer/apps/${appId}/test-install`, { token: dev.token });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      installationId: expect.stringMatching(/^inst_/),
      accessToken: expect.stringMatching(/^fbat_test_/),
      webhookSecret: expect.stringMatching(/^whsec_test_/),
      businessId: dev.businessId,
      isTestInstall: true,
    });
    expect((await p.request("POST", `/developer/apps/${appId}/test-install`, { token: dev.token })).status).toBe(409);
    expect((await business(res.json.accessToken)).json.id).toBe(dev.businessId);

    const status = await p.request("GET", `/developer/apps/${appId}/test-status`, { token: dev.token });
    expect(status.json).toEqual({
      installed: true,
      installation: {
        installationId: res.json.installationId,
        businessId: dev.businessId,
        isTestInstall: true,
        needsReConsent: false,
        scopes: ["read_business"],
        installedAt: expect.any(String),
      },
    });

    // another developer cannot see or touch it
    const other = await p.register("DEVELOPER");
    expect((await p.request("GET", `/developer/apps/${appId}/test-status`, { token: other.token })).status).toBe(404);
    expect((await p.request("POST", `/developer/apps/${appId}/test-uninstall`, { token: other.token })).status).toBe(
      404,
    );
    expect((await p.request("POST", `/developer/apps/${appId}/test-install`, { token: other.token })).status).toBe(404);

    await p.request("POST", `/developer/apps/${appId}/submit`, { token: dev.token });
    await p.request("POST", `/review/apps/${appId}/approve`, {
      token: reviewer.token,
      body: { criteria: REVIEW_CRITERIA_KEYS },
    });
    const converted = await p.request("GET", `/developer/apps/${appId}/test-status`, { token: dev.token });
    expect(converted.json.installation.isTestInstall).toBe(false);
    expect((await business(res.json.accessToken)).status).toBe(200);

    const un = await p.request("POST", `/developer/apps/${appId}/test-uninstall`, { token: dev.token });
    expect(un.json).toEqual({ uninstalled: true });
    expect((await business(res.json.accessToken)).status).toBe(401);
    expect((await p.request("POST", `/developer/apps/${appId}/test-uninstall`, { token: dev.token })).status).toBe(404);
  });
});

describe("a developer's sandbox installing an approved app through OAuth (decision 054)", () => {
  it("is allowed for anyone's approved app, and counts nowhere: marketplace installs, analytics, reviews", async () => {
    const app = await publishedApp({ scopes: ["read_orders", "read_business"] });
    const figures = async () => {
      const [row] = await p.db.execute<{ active_installs: number }>(
        sql`select active_installs from apps where id = ${app.id}`,
      );
      const analytics = await p.request("GET", `/developer/apps/${app.id}/analytics`, { token: dev.token });
      const today = analytics.json.installTrend.at(-1);
      return {
        marketplace: row.active_installs,
        total: analytics.json.totalInstalls,
        active: analytics.json.activeInstalls,
        installedToday: today.installs,
        uninstalledToday: today.uninstalls,
      };
    };
    // a merchant's install counts once everywhere
    const merchant = await merchantSession();
    await install(app, merchant.browser);
    const shopOnly = { marketplace: 1, total: 1, active: 1, installedToday: 1, uninstalledToday: 0 };
    expect(await figures()).toEqual(shopOnly);
    const listing = async () => (await merchant.browser.get(`/marketplace/${app.slug}`)).html.replace(/<!-- -->/g, "");
    expect(await listing()).toContain("Installed by 1 business");

    // another developer installs it on their sandbox: a production installation that works, on the sandbox
    const other = await p.register("DEVELOPER");
    const otherBrowser = await BrowserSession.signIn(p.url, other.email, PASSWORD);
    const screen = (browser: BrowserSession) =>
      browser
        .get(
          `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: app.clientId, redirect_uri: app.redirectUrl })}`,
        )
        .then((r) => r.html.replace(/<!-- -->/g, "").replace(/&#x27;|&apos;/g, "'"));
    // the consent screen says what a sandbox's installation is
    expect(await screen(otherBrowser)).toContain("It counts as no install in the marketplace or the app's analytics");
    expect(await screen(merchant.browser)).not.toContain("Your sandbox");
    const tokens = await install(app, otherBrowser);
    expect(tokens.business_id).toBe(other.businessId);
    expect(tokens.access_token).toMatch(/^fbat_(?!test_)/);
    expect((await business(tokens.access_token)).json.id).toBe(other.businessId);
    // the app's own developer too, on their own sandbox
    const devBrowser = await BrowserSession.signIn(p.url, dev.email, PASSWORD);
    const own = await install(app, devBrowser);
    expect(own.business_id).toBe(dev.businessId);

    // neither counts: not in the marketplace's figure, not in the developer's analytics
    expect(await figures()).toEqual(shopOnly);
    expect(await listing()).toContain("Installed by 1 business");
    // and a sandbox reviews no app
    const review = await p.request("PUT", `/merchant/installations/${tokens.installation_id}/review`, {
      token: other.token,
      body: { rating: 5, body: "Great app, would install again on my real shop." },
    });
    expect(review.status).toBe(403);
    expect(review.json.message).toBe("A sandbox business does not review apps");

    // its uninstall counts nowhere either; the merchant's uninstall does
    const un = await p.request("DELETE", `/merchant/installations/${tokens.installation_id}`, { token: other.token });
    expect(un.status).toBe(200);
    expect(await figures()).toEqual(shopOnly);
    const [shopInstall] = await p.db.execute<{ id: string }>(
      sql`select id from installations where app_id = ${app.id} and business_id = ${merchant.businessId}`,
    );
    await p.request("DELETE", `/merchant/installations/${shopInstall.id}`, { token: merchant.token });
    expect(await figures()).toEqual({ marketplace: 0, total: 1, active: 0, installedToday: 1, uninstalledToday: 1 });
  });

  it("does not count the app's own test installation once approval made it a production one", async () => {
    const created = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody() });
    expect(
      (await p.request("POST", `/developer/apps/${created.json.id}/test-install`, { token: dev.token })).status,
    ).toBe(201);
    await p.request("POST", `/developer/apps/${created.json.id}/submit`, { token: dev.token });
    await p.request("POST", `/review/apps/${created.json.id}/approve`, {
      token: reviewer.token,
      body: { criteria: REVIEW_CRITERIA_KEYS },
    });
    const [row] = await p.db.execute<{ active_installs: number; production: number }>(
      sql`select active_installs, (select count(*)::int from installations where app_id = ${created.json.id} and not is_test_install and status = 'ACTIVE') as production from apps where id = ${created.json.id}`,
    );
    expect(row).toEqual({ active_installs: 0, production: 1 });
    const analytics = await p.request("GET", `/developer/apps/${created.json.id}/analytics`, { token: dev.token });
    expect(analytics.json).toMatchObject({ totalInstalls: 0, activeInstalls: 0 });
  });
});
