/** The reference app's browser pages: plain HTML, speaking the platform's protocols through the SDK's bridge. */

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * A block (or floating widget) page on the SDK's browser bridge, loaded from the platform
 * (`<platform>/sdk/bridge.js`): READY -> INIT -> UPDATE, and RESIZE to its own height. It is shown
 * on two origins, the site builder's preview and the storefront; the bridge talks only to its
 * parent, and only when the parent is one of them.
 */
export function blockPage(platformUrl: string, hostOrigins: string[], kind: "block" | "widget") {
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Reference App ${kind}</title>
<style>
  body{margin:0;font-family:system-ui,sans-serif}
  #card{margin:0;padding:18px 20px;border-radius:12px;color:#fff;background:#7c3aed}
  #title{margin:0 0 4px;font-size:20px} #sub{margin:0;opacity:.9;font-size:14px} #stars{letter-spacing:3px}
</style></head><body>
<div id="card"><p id="title">${kind === "block" ? "Loyalty club" : "Need help?"}</p><p id="sub">Earn points with every order</p><p id="stars"></p></div>
<script type="module">
  import { createBridge } from ${JSON.stringify(platformUrl + "/sdk/bridge.js")};
  const bridge = createBridge({ hostOrigins: ${JSON.stringify(hostOrigins)} });
  const $ = (id) => document.getElementById(id);
  function render({ settings: s = {}, mode }) {
    if (mode) document.body.dataset.mode = mode;
    if (typeof s.color === "string") $("card").style.background = s.color;
    $("title").textContent = s.title || s.greeting || $("title").textContent;
    $("stars").textContent = s.showStars ? "\u2605\u2605\u2605\u2605\u2605" : "";
    $("sub").textContent = s.endsAt ? "Offer ends " + new Date(s.endsAt).toLocaleString() : "Earn points with every order";
    bridge.resize();
  }
  bridge.onInit(render).onUpdate(render).ready();
</script></body></html>`;
}

/** The GLOBAL_SCRIPT embed: a small badge with the merchant's text. */
export function embedScript() {
  return `(function () {
  var me = document.currentScript;
  var settings = {};
  try { settings = JSON.parse((me && me.dataset.settings) || "{}"); } catch (e) {}
  var badge = document.createElement("div");
  badge.id = "reference-app-badge";
  badge.textContent = "\\u2605 " + (settings.text || "Loyalty club");
  badge.setAttribute("style", "position:fixed;top:12px;right:12px;background:#7c3aed;color:#fff;padding:4px 10px;border-radius:999px;font:600 12px system-ui;z-index:40");
  function add() { document.body.appendChild(badge); }
  // the storefront re-renders nodes added before it is hydrated: wait for its signal
  if (document.documentElement.dataset.storefrontReady) add(); else window.addEventListener("storefront:ready", add, { once: true });
})();`;
}

/** The admin page: takes service:init from the platform only (the bridge), and lets the backend verify the session token. */
export function adminPage(platformUrl: string) {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Loyalty — Reference App</title>
<style>body{font-family:system-ui,sans-serif;margin:24px;color:#1d2330} table{border-collapse:collapse} td,th{padding:6px 10px;border-bottom:1px solid #ddd;text-align:left} .muted{color:#5f6b7a}</style>
</head><body>
<h1>Loyalty dashboard</h1>
<p id="status" class="muted">Waiting for the platform…</p>
<div id="content" hidden>
  <p>Business: <strong id="business"></strong> <span class="muted" id="address"></span></p>
  <p>You: <strong id="person"></strong> <span class="muted" id="permissions"></span></p>
  <section id="orders-panel">
  <h2>Latest orders</h2>
  <table><thead><tr><th>Order</th><th>Status</th><th>Amount</th></tr></thead><tbody id="orders"></tbody></table>
  </section>
  <p id="no-orders" class="muted" hidden>Orders are hidden: your account does not have the orders permission.</p>
  <p class="muted">Webhook events received: <span id="events"></span></p>
</div>
<script type="module">
  import { createBridge } from ${JSON.stringify(platformUrl + "/sdk/bridge.js")};
  const $ = (id) => document.getElementById(id);
  let done = false;
  createBridge({ hostOrigins: [${JSON.stringify(new URL(platformUrl).origin)}] }).onInit(async ({ role, sessionToken }) => {
    if (done) return;
    done = true;
    $("status").textContent = "Signed in as " + role + "; verifying…";
    const res = await fetch("/api/admin-data", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ sessionToken }) });
    const body = await res.json();
    if (!res.ok) return void ($("status").textContent = "Refused: " + body.error);
    $("status").textContent = "Verified session for " + body.business.name;
    $("business").textContent = body.business.name;
    $("address").textContent = body.business.address;
    // who is looking, from the verified session token (contract 17)
    $("person").textContent = body.person.name + (body.person.owner ? " (owner)" : "");
    $("permissions").textContent = "permissions: " + body.person.permissions.join(", ");
    if (!body.orders) { $("orders-panel").hidden = true; $("no-orders").hidden = false; }
    for (const o of body.orders ?? []) {
      const tr = $("orders").insertRow();
      // API version 2026-11-27: {amount (minor units), currency}; the currency's own digits make it major
      const fmt = new Intl.NumberFormat(undefined, { style: "currency", currency: o.amount.currency });
      const major = o.amount.amount / 10 ** fmt.resolvedOptions().maximumFractionDigits;
      for (const v of [o.orderNumber, o.status, fmt.format(major)]) tr.insertCell().textContent = v;
    }
    $("events").textContent = String(body.events);
    $("content").hidden = false;
  });
</script></body></html>`;
}

/** The body of the redirect back to the admin (shown only by clients that do not follow it). */
export function connectedPage(businessName: string, adminUrl: string) {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Connected</title></head><body style="font-family:system-ui;margin:40px">
<h1>Reference App is connected</h1><p>Installed on <strong>${esc(businessName)}</strong>. <a href="${esc(adminUrl)}">Back to your admin</a></p></body></html>`;
}

export function errorPage(message: string) {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Error</title></head><body style="font-family:system-ui;margin:40px"><h1>Something went wrong</h1><p>${esc(message)}</p></body></html>`;
}
