/**
 * The reference app: a small, real app on node:http (no framework) that uses every capability of
 * the platform. See README.md beside this file.
 */
import http from "node:http";
import {
  AppApiError,
  authorizeUrl,
  createAppApiClient,
  createSubscription,
  exchangeCode,
  recordUsage,
  nodeHookHandler,
  nodeWebhookHandler,
  readRawBody,
  mayUse,
  verifySessionToken as verifyWithSdk,
  type AppApiClient,
} from "@storefront/app-sdk";
import { Store } from "./store";
import { REFERENCE_PLAN } from "./manifest";
import { adminPage, blockPage, connectedPage, embedScript, errorPage } from "./pages";

export type ReferenceAppOptions = {
  platformUrl: string;
  /** the platform's storefront origin (STOREFRONT_URL); by default the other loopback name of platformUrl, as the platform's own default */
  storefrontUrl?: string;
  clientId: string;
  clientSecret: string;
  port?: number;
  host?: string;
  dataFile?: string | null;
  log?: (line: string) => void;
};

export type ReferenceApp = {
  url: string;
  store: Store;
  /** the platform's hook calls and webhook deliveries this app accepted (for demos and tests) */
  log: { kind: "webhook" | "hook"; name: string; verified: boolean; duplicate?: boolean }[];
  setCredentials(clientId: string, clientSecret: string): void;
  close(): Promise<void>;
};

function send(
  res: http.ServerResponse,
  status: number,
  body: string,
  type = "application/json",
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store", ...headers });
  res.end(body);
}

/** Verifies the admin page's session token (HS256, aud = clientId, signed with the client secret) with the SDK; null when refused. */
export const verifySessionToken = (token: string, clientSecret: string, clientId: string) =>
  verifyWithSdk(token, { clientId, clientSecret }).catch(() => null);

/** The platform's default storefront origin for a platform on localhost or 127.0.0.1: the other name, same port. */
function defaultStorefront(platformOrigin: string): string {
  const url = new URL(platformOrigin);
  url.hostname = url.hostname === "localhost" ? "127.0.0.1" : url.hostname === "127.0.0.1" ? "localhost" : url.hostname;
  return url.origin;
}

const HOOKS = ["payment-methods", "create-payment", "shipping-rates", "validate", "discounts"];

export async function startReferenceApp(options: ReferenceAppOptions): Promise<ReferenceApp> {
  const platform = options.platformUrl.replace(/\/$/, "");
  const platformOrigin = new URL(platform).origin;
  const storefrontOrigin = new URL(options.storefrontUrl ?? defaultStorefront(platformOrigin)).origin;
  const store = new Store(options.dataFile ?? null);
  const say = options.log ?? (() => {});
  const log: ReferenceApp["log"] = [];
  let clientId = options.clientId;
  let clientSecret = options.clientSecret;
  const pending = new Map<string, { verifier: string; at: number }>();
  let appUrl = "";

  const exchange = (code: string, verifier?: string) =>
    exchangeCode({
      platformUrl: platform,
      clientId,
      clientSecret,
      code,
      redirectUri: `${appUrl}/oauth/callback`,
      codeVerifier: verifier,
    }).catch((e: Error) => {
      throw new Error(`token exchange failed: ${e.message}`);
    });

  /** The typed App API client of the business's installation. */
  function appApi(businessId: string): AppApiClient {
    const installation = store.installation(businessId);
    if (!installation) throw new Error("not installed on this business");
    return createAppApiClient({ baseUrl: platform, accessToken: installation.accessToken });
  }
  async function business(businessId: string) {
    const { data, response } = await appApi(businessId).GET("/app-api/business");
    if (!data) throw new Error(`App API /business: ${response.status}`);
    return data;
  }

  // webhooks and hook calls are verified by the SDK with the secret of the installation on the business the body names
  const secretOf = ({ businessId }: { businessId?: string }) => store.installation(businessId ?? "")?.webhookSecret;
  const onWebhook = nodeWebhookHandler(secretOf, ({ id, event, businessId, data }) => {
    if (event === "business.data_erasure") {
      store.erase(businessId);
      say(`erased every record of ${businessId}`);
      return void log.push({ kind: "webhook", name: event, verified: true });
    }
    // the envelope's id is the delivery's (X-Service-Event-Id), kept across retries and covered by the signature
    const fresh = store.recordEvent(businessId, { id, event, receivedAt: new Date().toISOString(), data });
    log.push({ kind: "webhook", name: event, verified: true, duplicate: !fresh });
  });
  const onHook = nodeHookHandler(secretOf, ({ data }, req) => {
    const name = req.url!.slice(req.url!.lastIndexOf("/hooks/") + 7);
    log.push({ kind: "hook", name, verified: true });
    return hookAnswer(name, data ?? {});
  });

  function hookAnswer(name: string, data: any): unknown {
    switch (name) {
      case "payment-methods":
        return { methods: [{ id: "refpay", name: "RefPay", description: "Pay online with RefPay (reference app)" }] };
      case "create-payment":
        return {
          paymentUrl: `${appUrl}/pay/${encodeURIComponent(data.orderId)}`,
          invoiceId: `inv_${data.orderId}`,
          qrCode: `REFPAY:${data.orderId}:${data.amount.amount}`,
          expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
        };
      // money in API version 2026-11-27 (the app's pin): {amount, currency} in minor units
      case "shipping-rates":
        return {
          fee: { amount: data.subtotal.amount >= 5000 ? 0 : data.builtInFee.amount, currency: data.subtotal.currency },
        };
      case "validate": {
        const count = (data.items ?? []).reduce((s: number, i: { quantity: number }) => s + i.quantity, 0);
        return count > 50
          ? { valid: false, reason: "Orders of more than 50 items need a call to the shop." }
          : { valid: true };
      }
      case "discounts":
        return {
          discount: { amount: Math.min(100, data.subtotal.amount), currency: data.subtotal.currency },
          reason: "Loyalty welcome discount",
        };
      default:
        return null;
    }
  }

  /** the active subscription of each business (set when the merchant comes back from approving) */
  const subscriptions = new Map<string, string>();

  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://localhost");
      const path = url.pathname;
      if (req.method === "GET" && path === "/install") {
        // an install started by the app (the marketplace's Install button starts it on the platform side)
        const {
          url: location,
          state,
          codeVerifier,
        } = authorizeUrl({ platformUrl: platform, clientId, redirectUri: `${appUrl}/oauth/callback` });
        pending.set(state, { verifier: codeVerifier, at: Date.now() });
        return send(res, 302, "", "text/plain", { Location: location });
      }
      if (req.method === "GET" && path === "/oauth/callback") {
        const code = url.searchParams.get("code");
        const state = url.searchParams.get("state") ?? "";
        if (url.searchParams.get("error"))
          return send(
            res,
            200,
            errorPage(`The install was cancelled (${url.searchParams.get("error")}).`),
            "text/html",
          );
        const own = pending.get(state);
        if (!code || (!own && !state.startsWith("marketplace.")))
          return send(res, 400, errorPage("Unknown or expired install request."), "text/html");
        pending.delete(state);
        const tokens = await exchange(code, own?.verifier);
        store.saveInstallation({
          businessId: tokens.business_id,
          installationId: tokens.installation_id,
          accessToken: tokens.access_token,
          webhookSecret: tokens.webhook_secret,
          scopes: tokens.scope.split(" "),
          installedAt: new Date().toISOString(),
        });
        const { name } = await business(tokens.business_id);
        say(`installed on ${name}`);
        // back to the merchant's admin, on the installed app's page (docs/developers/getting-started.md);
        // a fixed path on the platform's own origin with the id the token exchange returned
        const back = `${platform}/admin/apps/${encodeURIComponent(tokens.installation_id)}?installed=1`;
        return send(res, 303, connectedPage(name, back), "text/html", { Location: back });
      }
      // billing (docs/developers/billing.md): ask the merchant to approve the plan, then charge usage under its cap
      if (req.method === "GET" && path === "/billing/subscribe") {
        const businessId = url.searchParams.get("businessId") ?? "";
        if (!store.installation(businessId))
          return send(res, 404, errorPage("Not installed on that business."), "text/html");
        const sub = await createSubscription(appApi(businessId), {
          planId: url.searchParams.get("plan") ?? REFERENCE_PLAN,
          returnUrl: `${appUrl}/billing/done?businessId=${encodeURIComponent(businessId)}`,
        });
        return send(res, 303, "", "text/plain", { Location: sub.confirmationUrl });
      }
      if (req.method === "GET" && path === "/billing/done") {
        const businessId = url.searchParams.get("businessId") ?? "";
        const status = url.searchParams.get("status");
        if (status === "ACTIVE") subscriptions.set(businessId, url.searchParams.get("subscription_id") ?? "");
        say(`plan ${status === "ACTIVE" ? "approved" : "declined"} on ${businessId}`);
        return send(
          res,
          200,
          `<!doctype html><title>Billing</title><h1 id="billing-status">Plan ${status === "ACTIVE" ? "active" : "declined"}</h1>`,
          "text/html",
        );
      }
      if (req.method === "POST" && path === "/billing/usage") {
        // charged by the app's own logic (a message sent, a label printed); here on request, for the demo
        const body = JSON.parse((await readRawBody(req)).toString("utf8") || "{}");
        const subscriptionId = subscriptions.get(String(body.businessId));
        if (!subscriptionId) return send(res, 404, JSON.stringify({ error: "no active plan" }));
        try {
          const record = await recordUsage(
            appApi(String(body.businessId)),
            subscriptionId,
            { description: String(body.description), amount: { amount: Number(body.amount), currency: "USD" } },
            body.key ? String(body.key) : undefined,
          );
          return send(res, 201, JSON.stringify(record));
        } catch (e) {
          // over the cap (409): the platform's refusal, as it came
          if (e instanceof AppApiError) return send(res, e.status, JSON.stringify(e.body));
          throw e;
        }
      }
      if (req.method === "POST" && path === "/webhooks") {
        await onWebhook(req, res);
        if (res.statusCode === 401)
          log.push({ kind: "webhook", name: String(req.headers["x-webhook-event"] ?? ""), verified: false });
        return;
      }
      const hook = /^\/webhooks\/hooks\/([a-z-]+)$/.exec(path)?.[1];
      if (req.method === "POST" && hook && HOOKS.includes(hook)) {
        await onHook(req, res);
        if (res.statusCode === 401) log.push({ kind: "hook", name: hook, verified: false });
        return;
      }
      if (req.method === "POST" && path === "/api/admin-data") {
        const { sessionToken } = JSON.parse((await readRawBody(req)).toString("utf8") || "{}");
        const claims =
          typeof sessionToken === "string" ? await verifySessionToken(sessionToken, clientSecret, clientId) : null;
        if (!claims || typeof claims.businessId !== "string")
          return send(res, 401, JSON.stringify({ error: "invalid session token" }));
        // the person looking (contract 17): the orders panel only for someone with `orders`
        const person = { name: claims.name ?? "", owner: claims.owner, permissions: claims.permissions };
        const seesOrders = mayUse(claims, "orders");
        const [info, orders] = await Promise.all([
          business(claims.businessId),
          seesOrders ? appApi(claims.businessId).GET("/app-api/orders", { params: { query: { limit: 5 } } }) : null,
        ]);
        if (orders && !orders.data) throw new Error(`App API /orders: ${orders.response.status}`);
        return send(
          res,
          200,
          JSON.stringify({
            business: info,
            person,
            orders: orders?.data?.data ?? null,
            events: store.events(claims.businessId).length,
          }),
        );
      }
      if (req.method === "GET" && (path === "/block" || path === "/widget"))
        return send(
          res,
          200,
          blockPage(platform, [platformOrigin, storefrontOrigin], path === "/block" ? "block" : "widget"),
          "text/html",
        );
      if (req.method === "GET" && path === "/embed.js") return send(res, 200, embedScript(), "text/javascript");
      if (req.method === "GET" && path === "/admin") return send(res, 200, adminPage(platform), "text/html");
      if (req.method === "GET" && path.startsWith("/pay/"))
        return send(
          res,
          200,
          `<!doctype html><h1>RefPay</h1><p>Payment page for ${decodeURIComponent(path.slice(5)).replace(/[<>&"]/g, "")}</p>`,
          "text/html",
        );
      if (req.method === "GET" && path === "/")
        return send(
          res,
          200,
          `<!doctype html><h1>Reference App</h1><p><a href="/install">Install</a></p>`,
          "text/html",
        );
      send(res, 404, JSON.stringify({ error: "not found" }));
    } catch (e) {
      say(`error: ${(e as Error).message}`);
      if (!res.headersSent) send(res, 500, JSON.stringify({ error: (e as Error).message }));
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve()));
  const { port } = server.address() as { port: number };
  appUrl = `http://127.0.0.1:${port}`;
  return {
    url: appUrl,
    store,
    log,
    setCredentials(id, secret) {
      clientId = id;
      clientSecret = secret;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
