/**
 * The reference app: a small, real app on node:http (no framework) that uses every capability of
 * the platform. See README.md beside this file.
 */
import http from "node:http";
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { verifyWebhook } from "../../app/platform/webhooks/verify";
import { Store } from "./store";
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

const MAX_BODY = 1024 * 1024;

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error("body too large"));
        req.destroy();
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: http.ServerResponse, status: number, body: string, type = "application/json", headers: Record<string, string> = {}) {
  res.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store", ...headers });
  res.end(body);
}

/** Verifies an HS256 JWT signed with the client secret: the admin page's session token. */
export function verifySessionToken(token: string, clientSecret: string, clientId: string, nowSeconds = Math.floor(Date.now() / 1000)): Record<string, unknown> | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [h, p, s] = parts;
  const expected = createHmac("sha256", clientSecret).update(`${h}.${p}`).digest();
  const given = Buffer.from(s, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const header = JSON.parse(Buffer.from(h, "base64url").toString());
    const claims = JSON.parse(Buffer.from(p, "base64url").toString());
    if (header.alg !== "HS256" || claims.aud !== clientId || typeof claims.exp !== "number" || claims.exp < nowSeconds) return null;
    return claims;
  } catch {
    return null;
  }
}

/** The platform's default storefront origin for a platform on localhost or 127.0.0.1: the other name, same port. */
function defaultStorefront(platformOrigin: string): string {
  const url = new URL(platformOrigin);
  url.hostname = url.hostname === "localhost" ? "127.0.0.1" : url.hostname === "127.0.0.1" ? "localhost" : url.hostname;
  return url.origin;
}

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

  async function exchange(code: string, verifier?: string) {
    const res = await fetch(`${platform}/oauth/token`, {
      method: "POST",
      headers: { Authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString("base64")}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: `${appUrl}/oauth/callback`, ...(verifier ? { code_verifier: verifier } : {}) }),
    });
    const body = await res.json();
    if (!res.ok) throw new Error(`token exchange failed: ${body.error} ${body.error_description ?? ""}`);
    return body as { access_token: string; scope: string; installation_id: string; business_id: string; webhook_secret: string };
  }

  async function appApi(businessId: string, path: string) {
    const installation = store.installation(businessId);
    if (!installation) throw new Error("not installed on this business");
    const res = await fetch(`${platform}/app-api${path}`, { headers: { Authorization: `Bearer ${installation.accessToken}` } });
    if (!res.ok) throw new Error(`App API ${path}: ${res.status}`);
    return res.json();
  }

  /** A hook call or webhook, verified with the secret of the business's installation. */
  function verified(raw: string, headers: http.IncomingHttpHeaders): { businessId: string; body: any } | null {
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      return null;
    }
    const businessId = typeof body?.businessId === "string" ? body.businessId : "";
    const installation = store.installation(businessId);
    if (!installation || !verifyWebhook(raw, headers, installation.webhookSecret, { toleranceSeconds: 300 })) return null;
    return { businessId, body };
  }

  function hookAnswer(name: string, data: any): unknown {
    switch (name) {
      case "payment-methods":
        return { methods: [{ id: "refpay", name: "RefPay", description: "Pay online with RefPay (reference app)" }] };
      case "create-payment":
        return { paymentUrl: `${appUrl}/pay/${encodeURIComponent(data.orderId)}`, invoiceId: `inv_${data.orderId}`, qrCode: `REFPAY:${data.orderId}:${data.amount}`, expiresAt: new Date(Date.now() + 30 * 60_000).toISOString() };
      case "shipping-rates":
        return { fee: data.subtotal >= 5000 ? 0 : data.builtInFee };
      case "validate": {
        const count = (data.items ?? []).reduce((s: number, i: { quantity: number }) => s + i.quantity, 0);
        return count > 50 ? { valid: false, reason: "Orders of more than 50 items need a call to the shop." } : { valid: true };
      }
      case "discounts":
        return { discount: Math.min(100, data.subtotal), reason: "Loyalty welcome discount" };
      default:
        return null;
    }
  }

  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://localhost");
      const path = url.pathname;
      if (req.method === "GET" && path === "/install") {
        // an install started by the app (the marketplace's Install button starts it on the platform side)
        const state = randomBytes(16).toString("base64url");
        const verifier = randomBytes(32).toString("base64url");
        pending.set(state, { verifier, at: Date.now() });
        const q = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: `${appUrl}/oauth/callback`, state, code_challenge: createHash("sha256").update(verifier).digest("base64url"), code_challenge_method: "S256" });
        return send(res, 302, "", "text/plain", { Location: `${platform}/oauth/authorize?${q}` });
      }
      if (req.method === "GET" && path === "/oauth/callback") {
        const code = url.searchParams.get("code");
        const state = url.searchParams.get("state") ?? "";
        if (url.searchParams.get("error")) return send(res, 200, errorPage(`The install was cancelled (${url.searchParams.get("error")}).`), "text/html");
        const own = pending.get(state);
        if (!code || (!own && !state.startsWith("marketplace."))) return send(res, 400, errorPage("Unknown or expired install request."), "text/html");
        pending.delete(state);
        const tokens = await exchange(code, own?.verifier);
        store.saveInstallation({ businessId: tokens.business_id, installationId: tokens.installation_id, accessToken: tokens.access_token, webhookSecret: tokens.webhook_secret, scopes: tokens.scope.split(" "), installedAt: new Date().toISOString() });
        const business = (await appApi(tokens.business_id, "/business")) as { name: string };
        say(`installed on ${business.name}`);
        // back to the merchant's admin, on the installed app's page (docs/developers/getting-started.md);
        // a fixed path on the platform's own origin with the id the token exchange returned
        const back = `${platform}/admin/apps/${encodeURIComponent(tokens.installation_id)}?installed=1`;
        return send(res, 303, connectedPage(business.name, back), "text/html", { Location: back });
      }
      if (req.method === "POST" && path === "/webhooks") {
        const raw = await readBody(req);
        const ok = verified(raw, req.headers);
        const event = String(req.headers["x-webhook-event"] ?? "");
        if (!ok) {
          log.push({ kind: "webhook", name: event, verified: false });
          return send(res, 401, JSON.stringify({ error: "bad signature or stale timestamp" }));
        }
        const deliveryId = String(req.headers["x-service-event-id"] ?? ok.body.id);
        if (event === "business.data_erasure") {
          store.erase(ok.businessId);
          log.push({ kind: "webhook", name: event, verified: true });
          say(`erased every record of ${ok.businessId}`);
          return send(res, 200, "{}");
        }
        const fresh = store.recordEvent(ok.businessId, { id: deliveryId, event, receivedAt: new Date().toISOString(), data: ok.body.data });
        log.push({ kind: "webhook", name: event, verified: true, duplicate: !fresh });
        return send(res, 200, "{}");
      }
      if (req.method === "POST" && path.includes("/hooks/")) {
        const raw = await readBody(req);
        const ok = verified(raw, req.headers);
        const name = path.slice(path.lastIndexOf("/hooks/") + 7);
        log.push({ kind: "hook", name, verified: !!ok });
        if (!ok) return send(res, 401, JSON.stringify({ error: "bad signature" }));
        const answer = hookAnswer(name, ok.body.data ?? {});
        return answer ? send(res, 200, JSON.stringify(answer)) : send(res, 404, "{}");
      }
      if (req.method === "POST" && path === "/api/admin-data") {
        const raw = await readBody(req);
        const { sessionToken } = JSON.parse(raw || "{}");
        const claims = typeof sessionToken === "string" ? verifySessionToken(sessionToken, clientSecret, clientId) : null;
        if (!claims || typeof claims.businessId !== "string") return send(res, 401, JSON.stringify({ error: "invalid session token" }));
        const [business, orders] = await Promise.all([appApi(claims.businessId, "/business"), appApi(claims.businessId, "/orders?limit=5")]);
        return send(res, 200, JSON.stringify({ business, orders: (orders as { data: unknown[] }).data, events: store.events(claims.businessId).length }));
      }
      if (req.method === "GET" && path === "/block") return send(res, 200, blockPage([platformOrigin, storefrontOrigin], "block"), "text/html");
      if (req.method === "GET" && path === "/widget") return send(res, 200, blockPage([platformOrigin, storefrontOrigin], "widget"), "text/html");
      if (req.method === "GET" && path === "/embed.js") return send(res, 200, embedScript(), "text/javascript");
      if (req.method === "GET" && path === "/admin") return send(res, 200, adminPage(platformOrigin), "text/html");
      if (req.method === "GET" && path.startsWith("/pay/")) return send(res, 200, `<!doctype html><h1>RefPay</h1><p>Payment page for ${decodeURIComponent(path.slice(5)).replace(/[<>&"]/g, "")}</p>`, "text/html");
      if (req.method === "GET" && path === "/") return send(res, 200, `<!doctype html><h1>Reference App</h1><p><a href="/install">Install</a></p>`, "text/html");
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
