/**
 * The demo apps server (decision 062): the six apps of the demo marketplace, served for real by
 * `npm start` on an origin of their own (DEMO_APPS_URL, port DEMO_APPS_PORT), one path prefix per
 * app (`/<slug>/…`). Each is an ordinary app of the platform: it completes OAuth (exchanging the
 * code at /oauth/token with its client secret) and lands the merchant on its admin page, verifies
 * the admin page's session token with its client secret, verifies every webhook and hook call with
 * the installation's webhook secret, and calls the App API with its token. What each app does is in
 * `demo-app-behaviour.server.ts`; its pages in `demo-app-pages.ts`.
 *
 * Being shipped with the platform, the server reads its apps' client ids and secrets from the apps
 * table (the secret is kept there encrypted with ENCRYPTION_KEY) instead of from settings of its
 * own, and keeps its own rows in `demo_app_installations`.
 */
import http from "node:http";
import { createHmac } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import {
  OAuthError,
  authorizeUrl,
  exchangeCode,
  readRawBody,
  verifyHookCall,
  verifySessionToken,
  verifyWebhook,
  WebhookVerificationError,
} from "@storefront/app-sdk";
import type { Database } from "../../../db/client";
import { accounts, apps, webhooks, type App } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { decrypt, safeEqual } from "../core/crypto.server";
import { updateApp } from "../apps/apps.server";
import {
  DEMO_API_PIN,
  DEMO_APP_SLUGS,
  demoAdminPageId,
  demoAppRecord,
  demoAppUrl,
  isDemoAppSlug,
  type DemoAppSlug,
} from "./demo-apps";
import { demoAppStore, type DemoAppStore } from "./demo-app-store.server";
import { adminPage, messagePage, pointsBadgeScript, signupWidgetPage, stampCardPage } from "./demo-app-pages";
import { BEHAVIOURS, type AppContext } from "./demo-app-behaviour.server";
import { DEMO_LOGINS } from "./demo-logins";

export type DemoAppsServer = {
  url: string;
  apps: { slug: DemoAppSlug; name: string; url: string }[];
  close(): Promise<void>;
};

const APP_SESSION_SECONDS = 3600;

/** The demo developer's apps with the demo slugs: the only records the demo apps server serves. */
async function demoAppRows(db: Database): Promise<App[]> {
  const rows = await db
    .select({ app: apps })
    .from(apps)
    .innerJoin(accounts, eq(accounts.id, apps.developerId))
    .where(and(eq(accounts.email, DEMO_LOGINS[1].email), inArray(apps.slug, [...DEMO_APP_SLUGS])));
  return rows.map((r) => r.app);
}

/**
 * Points the demo apps' records at `baseUrl` (redirect and webhook URLs, the manifest's addresses,
 * and the webhook registrations made at install), when they point elsewhere: the port may change
 * between starts. An app the demo developer has put in review is left as it is.
 */
export async function pointDemoAppsAt(db: Database, baseUrl: string) {
  for (const app of await demoAppRows(db)) {
    const slug = app.slug as DemoAppSlug;
    const record = demoAppRecord(baseUrl, slug);
    if (app.redirectUrl === record.redirectUrl && app.webhookUrl === record.webhookUrl) continue;
    if (app.status === "PENDING_REVIEW" || app.updateInReview) continue;
    const oldWebhookUrl = app.webhookUrl;
    await updateApp(db, app.developerId, app.id, {
      redirectUrl: record.redirectUrl,
      webhookUrl: record.webhookUrl,
      webhookEvents: record.webhookEvents,
      manifest: record.manifest,
      apiVersion: DEMO_API_PIN,
    });
    if (oldWebhookUrl)
      await db
        .update(webhooks)
        .set({ url: record.webhookUrl, updatedAt: new Date() })
        .where(and(eq(webhooks.appId, app.id), eq(webhooks.isInstallDefault, true), eq(webhooks.url, oldWebhookUrl)));
  }
}

function send(res: http.ServerResponse, status: number, body: string, type = "application/json", headers = {}) {
  res.writeHead(status, {
    "Content-Type": `${type}; charset=utf-8`,
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    ...headers,
  });
  res.end(body);
}
const html = (res: http.ServerResponse, status: number, body: string) => send(res, status, body, "text/html");

/** Starts the demo apps server for the platform at `env.publicUrl` and points the demo apps' records at it. */
export async function startDemoApps(options: {
  db: Database;
  env: Env;
  port?: number;
  host?: string;
  log?: (line: string) => void;
}): Promise<DemoAppsServer> {
  const { db, env } = options;
  const setting = env.demoApps ?? { port: 0, url: "http://127.0.0.1:0" };
  const platform = env.publicUrl;
  const hostOrigins = [new URL(env.publicUrl).origin, new URL(env.storefrontUrl).origin];
  const say = options.log ?? (() => {});
  let baseUrl = setting.url;
  /** installs this server started itself ("Connect" on an admin page): state -> PKCE verifier */
  const pending = new Map<string, { verifier: string; at: number }>();

  async function credentials(slug: DemoAppSlug) {
    const app = (await demoAppRows(db)).find((a) => a.slug === slug);
    // an app from before secrets were kept encrypted has none the server could read
    if (!app?.clientSecretEnc) return null;
    return { app, clientId: app.clientId, clientSecret: decrypt(app.clientSecretEnc, env.encryptionKey) };
  }
  const sessionKey = (clientSecret: string) => createHmac("sha256", clientSecret).update("demo-app-session").digest();
  /** The app's own session for its admin page, after it verified the platform's 60-second session token. */
  function appSession(clientSecret: string, businessId: string) {
    const exp = Math.floor(Date.now() / 1000) + APP_SESSION_SECONDS;
    const payload = `${businessId}.${exp}`;
    return `${payload}.${createHmac("sha256", sessionKey(clientSecret)).update(payload).digest("base64url")}`;
  }
  function readAppSession(clientSecret: string, session: unknown): string | null {
    if (typeof session !== "string") return null;
    const [businessId, exp, mac] = session.split(".");
    if (!businessId || !exp || !mac || Number(exp) < Date.now() / 1000) return null;
    const expected = createHmac("sha256", sessionKey(clientSecret)).update(`${businessId}.${exp}`).digest("base64url");
    return safeEqual(expected, mac) ? businessId : null;
  }

  const context = (slug: DemoAppSlug, store: DemoAppStore, appUrl: string): AppContext => ({
    slug,
    store,
    platformUrl: platform,
    appUrl,
    say: (line) => say(`${slug}: ${line}`),
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", "http://demo-apps");
    const [, first = "", ...restParts] = url.pathname.split("/");
    if (url.pathname === "/") {
      const links = DEMO_APP_SLUGS.map((s) => `<li><a href="/${s}/">${s}</a></li>`).join("");
      return html(res, 200, `<!doctype html><title>Demo apps</title><h1>Demo apps</h1><ul>${links}</ul>`);
    }
    if (!isDemoAppSlug(first)) return send(res, 404, JSON.stringify({ error: "not found" }));
    const slug = first;
    const rest = "/" + restParts.join("/");
    const creds = await credentials(slug);
    if (!creds) return send(res, 404, JSON.stringify({ error: "this demo app is not registered on the platform" }));
    const store = demoAppStore(db, env.encryptionKey, slug);
    const appUrl = demoAppUrl(baseUrl, slug);
    const ctx = context(slug, store, appUrl);
    const behaviour = BEHAVIOURS[slug];
    const redirectUri = `${appUrl}/oauth/callback`;
    const method = req.method ?? "GET";

    if (method === "GET" && rest === "/") {
      return html(
        res,
        200,
        messagePage(creds.app.name, creds.app.description, {
          href: `${platform}/marketplace/${slug}`,
          label: "See it in the marketplace",
        }),
      );
    }
    if (method === "GET" && rest === "/install") {
      // an install (or a reconnect) started by the app itself, with PKCE
      const start = authorizeUrl({ platformUrl: platform, clientId: creds.clientId, redirectUri });
      pending.set(start.state, { verifier: start.codeVerifier, at: Date.now() });
      return send(res, 302, "", "text/plain", { Location: start.url });
    }
    if (method === "GET" && rest === "/oauth/callback") {
      const error = url.searchParams.get("error");
      if (error)
        return html(
          res,
          200,
          messagePage("Install cancelled", `${creds.app.name} was not installed (${error}).`, {
            href: `${platform}/marketplace/${slug}`,
            label: "Back to the marketplace",
          }),
        );
      const code = url.searchParams.get("code");
      const state = url.searchParams.get("state") ?? "";
      const own = pending.get(state);
      if (!code || (!own && !state.startsWith("marketplace.")))
        return html(res, 400, messagePage("Unknown install request", "Start the install again from the marketplace."));
      pending.delete(state);
      let tokens;
      try {
        tokens = await exchangeCode({
          platformUrl: platform,
          clientId: creds.clientId,
          clientSecret: creds.clientSecret,
          code,
          redirectUri,
          codeVerifier: own?.verifier,
        });
      } catch (e) {
        const why = e instanceof OAuthError ? e.error : (e as Error).message;
        return html(res, 400, messagePage("The install did not complete", `The platform refused the code (${why}).`));
      }
      await store.save({
        businessId: tokens.business_id,
        installationId: tokens.installation_id,
        accessToken: tokens.access_token,
        webhookSecret: tokens.webhook_secret,
        scopes: tokens.scope.split(" ").filter(Boolean),
      });
      ctx.say(`installed on ${tokens.business_id}`);
      // back into the merchant's admin, on this app's own admin page
      const back = `${platform}/admin/ext/${encodeURIComponent(tokens.installation_id)}/${demoAdminPageId(slug)}`;
      return send(res, 303, "", "text/plain", { Location: back });
    }
    if (method === "GET" && rest === "/admin") return html(res, 200, adminPage(platform, creds.app.name));
    if (method === "POST" && rest === "/api/admin") {
      let body: { sessionToken?: unknown; session?: unknown; action?: unknown; args?: unknown };
      try {
        body = JSON.parse((await readRawBody(req, 64 * 1024)).toString("utf8") || "{}");
      } catch {
        return send(res, 400, JSON.stringify({ error: "the body is not JSON" }));
      }
      let businessId = readAppSession(creds.clientSecret, body.session);
      if (!businessId && typeof body.sessionToken === "string") {
        const claims = await verifySessionToken(body.sessionToken, creds).catch(() => null);
        businessId = claims?.businessId ?? null;
      }
      if (!businessId) return send(res, 401, JSON.stringify({ error: "invalid or expired session; reload the page" }));
      const session = appSession(creds.clientSecret, businessId);
      const install = await store.get(businessId);
      /** The view of a shop the app has no token for: a link to connect it (again). */
      const connectView = (status: string) =>
        send(
          res,
          200,
          JSON.stringify({
            session,
            view: { status, links: [{ label: `Connect ${creds.app.name}`, href: `${appUrl}/install` }] },
          }),
        );
      if (!install)
        return connectView(`${creds.app.name} has no access to this shop yet: connect it once to finish the install.`);
      try {
        const answer =
          typeof body.action === "string"
            ? await behaviour.act(ctx, install, body.action, (body.args ?? {}) as Record<string, unknown>)
            : {};
        const view = await behaviour.view(ctx, await store.get(businessId).then((i) => i ?? install));
        return send(res, 200, JSON.stringify({ session, view, ...answer }));
      } catch (e) {
        const status = (e as { status?: number }).status;
        if (status === 401) {
          // the token was revoked (an uninstall the app missed, a reinstall elsewhere): connect again
          return connectView(`${creds.app.name} lost its access to this shop: connect it again.`);
        }
        return send(res, status && status < 500 ? status : 502, JSON.stringify({ error: (e as Error).message }));
      }
    }
    if (method === "POST" && (rest === "/webhooks" || rest.startsWith("/webhooks/hooks/"))) {
      const raw = await readRawBody(req);
      let unverified: { businessId?: unknown } = {};
      try {
        unverified = JSON.parse(raw.toString("utf8"));
      } catch {
        /* refused below */
      }
      const install = typeof unverified.businessId === "string" ? await store.get(unverified.businessId) : null;
      try {
        if (!install) throw new WebhookVerificationError("bad_signature", "not installed on this business");
        if (rest === "/webhooks") {
          const envelope = verifyWebhook<Record<string, unknown>>(raw, req.headers, install.webhookSecret);
          if (envelope.event === "app.uninstalled" || envelope.event === "business.data_erasure") {
            await store.forget(install.businessId);
            ctx.say(`${envelope.event}: forgot ${install.businessId}`);
          } else if (envelope.event === "customer.redact") {
            // contract 15: what the app kept about the shopper goes
            const data = envelope.data as { customerEmail?: string; orderIds?: string[] };
            await store.redact(install.businessId, data.customerEmail ?? "", data.orderIds ?? []);
          } else await behaviour.onWebhook?.(ctx, install, envelope);
          return send(res, 200, '{"received":true}');
        }
        const call = verifyHookCall<Record<string, unknown>>(raw, req.headers, install.webhookSecret);
        const answer = await behaviour.onHook?.(ctx, install, rest.slice("/webhooks/hooks/".length), call);
        if (answer === undefined) return send(res, 404, JSON.stringify({ error: "no such hook" }));
        return send(res, 200, JSON.stringify(answer));
      } catch (e) {
        if (e instanceof WebhookVerificationError) return send(res, 401, JSON.stringify({ error: e.code }));
        throw e;
      }
    }
    // storefront and builder pieces
    if (method === "GET" && slug === "loyalty-stars" && rest === "/block")
      return html(res, 200, stampCardPage(platform, hostOrigins));
    if (method === "GET" && slug === "loyalty-stars" && rest === "/embed.js")
      return send(res, 200, pointsBadgeScript(), "text/javascript");
    if (method === "GET" && slug === "mailroom-campaigns" && rest === "/widget")
      return html(res, 200, signupWidgetPage(platform, hostOrigins));
    if (method === "POST" && slug === "mailroom-campaigns" && rest === "/signup") {
      let body: { businessId?: unknown; email?: unknown } = {};
      try {
        body = JSON.parse((await readRawBody(req, 4096)).toString("utf8") || "{}");
      } catch {
        return send(res, 400, JSON.stringify({ error: "the body is not JSON" }));
      }
      const email = typeof body.email === "string" ? body.email.trim().toLowerCase() : "";
      if (!/^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,}$/.test(email))
        return send(res, 400, JSON.stringify({ error: "an e-mail address is required" }));
      const install = typeof body.businessId === "string" ? await store.get(body.businessId) : null;
      if (!install) return send(res, 404, JSON.stringify({ error: "this shop does not use Mailroom Campaigns" }));
      await store.append(install.businessId, "subscribers", { email, at: new Date().toISOString() }, `signup:${email}`);
      return send(res, 201, JSON.stringify({ subscribed: true }));
    }
    if (method === "GET" && rest === "/billing/done") {
      const status = url.searchParams.get("status");
      return html(
        res,
        200,
        messagePage(
          status === "ACTIVE" ? "Plan active" : "Plan declined",
          status === "ACTIVE"
            ? `${creds.app.name} is on its paid plan now. You can close this tab and reload the app's page.`
            : `Nothing was charged. You can close this tab.`,
        ),
      );
    }
    return send(res, 404, JSON.stringify({ error: "not found" }));
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e) => {
      say(`error: ${(e as Error).message}`);
      if (!res.headersSent) send(res, 500, JSON.stringify({ error: "the demo app failed; see the server's log" }));
      else res.end();
    });
  });
  const bindHost =
    options.host ?? (["127.0.0.1", "localhost"].includes(new URL(setting.url).hostname) ? "127.0.0.1" : "0.0.0.0");
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? setting.port, bindHost, () => resolve());
  });
  const { port } = server.address() as { port: number };
  if (setting.port === 0 || options.port === 0) {
    const u = new URL(setting.url);
    u.port = String(port);
    baseUrl = u.origin;
  }
  await pointDemoAppsAt(db, baseUrl);
  const rows = await demoAppRows(db);
  return {
    url: baseUrl,
    apps: DEMO_APP_SLUGS.filter((s) => rows.some((r) => r.slug === s)).map((slug) => ({
      slug,
      name: rows.find((r) => r.slug === slug)!.name,
      url: demoAppUrl(baseUrl, slug),
    })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
