/**
 * A tiny app backend on its own 127.0.0.1 port (another origin than the platform): a block page, a
 * floating widget, a GLOBAL_SCRIPT, an admin page and an OAuth callback, speaking the postMessage
 * protocol of the spec. Pages record every message they receive in window.received.
 */
import http from "node:http";
import { listenLocally } from "../app/platform/testing/listen";

const blockPage = (kind: string) => `<!doctype html><html><head><meta charset="utf-8"><title>${kind}</title>
<style>body{margin:0;font-family:sans-serif}#box{padding:16px;border-radius:10px;color:#fff;background:#888}</style></head>
<body><div id="box"><strong id="label">${kind}</strong> <span id="mode"></span></div>
<script>
  window.loadId = Math.random().toString(36).slice(2);
  window.received = [];
  window.addEventListener("message", function (e) {
    if (e.source !== window.parent) return;
    window.received.push({ origin: e.origin, data: e.data });
    var s = e.data && e.data.settings;
    if (s && s.color) document.getElementById("box").style.background = s.color;
    if (s && s.title) document.getElementById("label").textContent = s.title;
    if (e.data && e.data.mode) document.getElementById("mode").textContent = e.data.mode;
  });
  window.parent.postMessage({ type: "SERVICE_BLOCK_READY" }, "*");
</script></body></html>`;

const adminPage = `<!doctype html><html><head><meta charset="utf-8"><title>Admin</title></head><body>
<h1>App admin page</h1><p id="query"></p><p id="init">waiting</p><p id="person"></p>
<script>
  document.getElementById("query").textContent = location.search;
  window.received = [];
  window.addEventListener("message", function (e) {
    window.received.push({ origin: e.origin, data: e.data });
    if (e.data && e.data.type === "service:init") {
      document.getElementById("init").textContent = "init for " + e.data.businessName;
      // who is looking, from the session token's claims (contract 17; a real app verifies it on its server)
      var claims = JSON.parse(atob(e.data.sessionToken.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
      document.getElementById("person").textContent =
        claims.name + (claims.owner ? " (owner)" : "") + ": " + claims.permissions.join(", ");
    }
  });
</script></body></html>`;

const script = `(function () {
  var me = document.currentScript;
  var marker = document.createElement("div");
  marker.id = "app-embed-marker";
  marker.textContent = "embed " + (me && me.dataset.embedType) + " " + (me && me.dataset.settings);
  // after the storefront says it is hydrated: elements added before that would be re-rendered away
  (document.documentElement.dataset.storefrontReady ? Promise.resolve() : new Promise(function (r) { window.addEventListener("storefront:ready", r, { once: true }); })).then(function () { document.body.appendChild(marker); });
})();`;

/**
 * Money as the call's API version writes it (the app answers in its pinned version): integers of
 * minor units in 2026-11-21, `{amount, currency}` from 2026-11-27 (in the call's currency).
 */
function moneyIn(body: { apiVersion?: string; data: Record<string, any> }, minor: number) {
  if (body.apiVersion === "2026-11-21") return minor;
  const currency = (body.data.subtotal as { currency?: string } | undefined)?.currency ?? "USD";
  return { amount: minor, currency };
}
const minorOf = (v: unknown) => (typeof v === "object" && v !== null ? (v as { amount: number }).amount : v);

/** 4.50 for delivery (9.00 to an island: a locality naming one), pickup free. */
function shippingFee(data: { deliveryMethod: string; locality?: string }) {
  if (data.deliveryMethod !== "DELIVERY") return 0;
  return /island/i.test(data.locality ?? "") ? 900 : 450;
}

export type Delivery = { event: string; headers: http.IncomingHttpHeaders; body: any };

/**
 * The e2e app. Its OAuth callback answers "Connected to the app"; once `connect` has given it the
 * platform's address and the app's credentials, it behaves as a real app should: it exchanges the
 * code and sends the merchant back to the admin, to `<PUBLIC_URL>/admin/apps/<installation_id>?installed=1`.
 */
export async function startAppServer(options: { shippingDelayMs?: number } = {}) {
  const webhooks: Delivery[] = [];
  const hookCalls: { hookPoint: string; body: any }[] = [];
  let oauth: { platformUrl: string; clientId: string; clientSecret: string } | null = null;
  let self = "";
  const exchange = async (code: string) => {
    const o = oauth!;
    const res = await fetch(`${o.platformUrl}/oauth/token`, {
      method: "POST",
      headers: {
        Authorization: `Basic ${Buffer.from(`${o.clientId}:${o.clientSecret}`).toString("base64")}`,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: `${self}/oauth/callback` }),
    });
    if (!res.ok) throw new Error(`token exchange failed: ${res.status} ${await res.text()}`);
    return (await res.json()) as { installation_id: string };
  };
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    const code = new URL(req.url ?? "/", "http://app").searchParams.get("code");
    if (req.method === "GET" && path === "/oauth/callback" && oauth && code) {
      exchange(code).then(
        (tokens) => {
          res.writeHead(303, {
            Location: `${oauth!.platformUrl}/admin/apps/${encodeURIComponent(tokens.installation_id)}?installed=1`,
          });
          res.end();
        },
        (e) => {
          res.writeHead(500, { "Content-Type": "text/plain" });
          res.end(String(e));
        },
      );
      return;
    }
    if (req.method === "POST") {
      let raw = "";
      req.on("data", (c) => (raw += c));
      req.on("end", () => {
        const body = raw ? JSON.parse(raw) : null;
        // a slow courier: its fee comes back after shippingDelayMs (the shopper's click lands meanwhile)
        if (path.endsWith("/hooks/shipping") && options.shippingDelayMs) {
          hookCalls.push({ hookPoint: String(req.headers["x-hook-point"]), body });
          setTimeout(() => {
            res.writeHead(200, { "Content-Type": "application/json" });
            res.end(JSON.stringify({ fee: moneyIn(body, shippingFee(body.data)) }));
          }, options.shippingDelayMs);
          return;
        }
        res.writeHead(200, { "Content-Type": "application/json" });
        if (path === "/webhooks") {
          webhooks.push({ event: String(req.headers["x-webhook-event"]), headers: req.headers, body });
          return res.end("{}");
        }
        hookCalls.push({ hookPoint: String(req.headers["x-hook-point"]), body });
        if (path.endsWith("/hooks/payment-methods"))
          return res.end(
            JSON.stringify({ methods: [{ id: "qr", name: "QR Pay", description: "Pay with your banking app" }] }),
          );
        if (path.endsWith("/hooks/create-payment"))
          return res.end(
            JSON.stringify({
              paymentUrl: `https://qrpay.example/pay/${body.data.orderId}`,
              invoiceId: `inv_${body.data.orderId}`,
              qrCode: "QRPAY:" + minorOf(body.data.amount),
            }),
          );
        // a delivery fee of 4.50 (pickup free) and a discount of 1.00 on every order
        if (path.endsWith("/hooks/shipping"))
          return res.end(JSON.stringify({ fee: moneyIn(body, shippingFee(body.data)) }));
        if (path.endsWith("/hooks/discounts"))
          return res.end(JSON.stringify({ discount: moneyIn(body, 100), reason: "Welcome offer" }));
        res.end("{}");
      });
      return;
    }
    if (path === "/block" || path === "/widget" || path === "/other") {
      res.writeHead(200, { "Content-Type": "text/html" });
      return res.end(blockPage(path.slice(1)));
    }
    if (path === "/admin") {
      res.writeHead(200, { "Content-Type": "text/html" });
      return res.end(adminPage);
    }
    if (path === "/embed.js") {
      res.writeHead(200, { "Content-Type": "text/javascript" });
      return res.end(script);
    }
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end(`<!doctype html><h1>Connected to the app</h1>`);
  });
  self = await listenLocally(server);
  return {
    url: self,
    webhooks,
    hookCalls,
    /** from now on the OAuth callback exchanges the code and redirects to the platform's admin */
    connect: (platformUrl: string, clientId: string, clientSecret: string) => {
      oauth = { platformUrl: platformUrl.replace(/\/$/, ""), clientId, clientSecret };
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        // the browser keeps idle keep-alive connections to the block pages; close() would wait for them
        server.closeAllConnections();
      }),
  };
}
