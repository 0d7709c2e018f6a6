/** The reference app's browser pages: plain HTML and JavaScript speaking the platform's protocols. */

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * A block (or floating widget) page: READY -> INIT -> UPDATE, and RESIZE to its own height. It is shown
 * in two places on two origins: the site builder (the platform's, mode "editor") and the storefront
 * (the storefront's, mode "storefront"); it talks only to its parent, and only when the parent is one of them.
 */
export function blockPage(hostOrigins: string[], kind: "block" | "widget") {
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Reference App ${kind}</title>
<style>
  body{margin:0;font-family:system-ui,sans-serif}
  #card{margin:0;padding:18px 20px;border-radius:12px;color:#fff;background:#7c3aed}
  #title{margin:0 0 4px;font-size:20px} #sub{margin:0;opacity:.9;font-size:14px} #stars{letter-spacing:3px}
</style></head><body>
<div id="card"><p id="title">${kind === "block" ? "Loyalty club" : "Need help?"}</p><p id="sub"></p><p id="stars"></p></div>
<script>
  var HOSTS = ${JSON.stringify(hostOrigins)};
  // the parent's origin (Chromium and Safari tell it; elsewhere the referrer, which carries the origin)
  var parentOrigin = (location.ancestorOrigins && location.ancestorOrigins[0]) || (document.referrer ? new URL(document.referrer).origin : "");
  var PLATFORM = HOSTS.indexOf(parentOrigin) >= 0 ? parentOrigin : null;
  window.received = [];
  function render(s) {
    s = s || {};
    var card = document.getElementById("card");
    if (typeof s.color === "string") card.style.background = s.color;
    document.getElementById("title").textContent = s.title || s.greeting || document.getElementById("title").textContent;
    document.getElementById("stars").textContent = s.showStars ? "\\u2605\\u2605\\u2605\\u2605\\u2605" : "";
    document.getElementById("sub").textContent = s.endsAt ? "Offer ends " + new Date(s.endsAt).toLocaleString() : "Earn points with every order";
    resize();
  }
  function resize() {
    if (PLATFORM) window.parent.postMessage({ type: "SERVICE_BLOCK_RESIZE", height: document.documentElement.scrollHeight }, PLATFORM);
  }
  window.addEventListener("message", function (event) {
    // only the platform may talk to us, and only our parent
    if (event.origin !== PLATFORM || event.source !== window.parent) return;
    var m = event.data || {};
    window.received.push(m);
    if (m.type === "SERVICE_BLOCK_INIT" || m.type === "SERVICE_BLOCK_UPDATE") render(m.settings);
    if (m.type === "SERVICE_BLOCK_INIT") document.body.dataset.mode = m.mode;
  });
  if (PLATFORM) window.parent.postMessage({ type: "SERVICE_BLOCK_READY" }, PLATFORM);
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

/** The admin page: trusts only service:init from the platform, and lets the backend verify the session token. */
export function adminPage(platformOrigin: string) {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Loyalty — Reference App</title>
<style>body{font-family:system-ui,sans-serif;margin:24px;color:#1d2330} table{border-collapse:collapse} td,th{padding:6px 10px;border-bottom:1px solid #ddd;text-align:left} .muted{color:#5f6b7a}</style>
</head><body>
<h1>Loyalty dashboard</h1>
<p id="status" class="muted">Waiting for the platform…</p>
<div id="content" hidden>
  <p>Business: <strong id="business"></strong> <span class="muted" id="address"></span></p>
  <h2>Latest orders</h2>
  <table><thead><tr><th>Order</th><th>Status</th><th>Amount</th></tr></thead><tbody id="orders"></tbody></table>
  <p class="muted">Webhook events received: <span id="events"></span></p>
</div>
<script>
  var PLATFORM = ${JSON.stringify(platformOrigin)};
  var done = false;
  window.addEventListener("message", function (event) {
    if (event.origin !== PLATFORM || !event.data || event.data.type !== "service:init" || done) return;
    done = true;
    document.getElementById("status").textContent = "Signed in as " + event.data.role + "; verifying…";
    fetch("/api/admin-data", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ sessionToken: event.data.sessionToken }) })
      .then(function (r) { return r.json().then(function (j) { return { ok: r.ok, body: j }; }); })
      .then(function (r) {
        if (!r.ok) { document.getElementById("status").textContent = "Refused: " + r.body.error; return; }
        document.getElementById("status").textContent = "Verified session for " + r.body.business.name;
        document.getElementById("business").textContent = r.body.business.name;
        document.getElementById("address").textContent = r.body.business.address;
        var rows = document.getElementById("orders");
        r.body.orders.forEach(function (o) {
          var tr = document.createElement("tr");
          [o.orderNumber, o.status, new Intl.NumberFormat(undefined, { style: "currency", currency: o.currency }).format(o.amount)].forEach(function (v) { var td = document.createElement("td"); td.textContent = v; tr.appendChild(td); });
          rows.appendChild(tr);
        });
        document.getElementById("events").textContent = String(r.body.events);
        document.getElementById("content").hidden = false;
      });
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
