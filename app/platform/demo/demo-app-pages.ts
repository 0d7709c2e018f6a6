/**
 * The demo apps' browser pages (decision 062): plain HTML on the SDK's browser bridge, loaded from
 * the platform (`<platform>/sdk/bridge.js`). One admin page for all six apps, which renders the view
 * its app's backend answers; the storefront pieces (Loyalty Stars' stamp card and badge, Mailroom's
 * sign-up card). No server code.
 */

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
const json = (v: unknown) => JSON.stringify(v).replace(/</g, "\\u003c");

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;padding:20px 24px;color:#1d2330;background:#fff}
h1{font-size:22px;margin:0 0 4px} h2{font-size:16px;margin:22px 0 8px} .muted{color:#5f6b7a}
table{border-collapse:collapse;width:100%;max-width:900px} td,th{padding:6px 10px;border-bottom:1px solid #e3e6ea;text-align:left;font-size:14px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:12px 0} dt{color:#5f6b7a} dd{margin:0;font-weight:600}
button,.button{font:inherit;font-size:14px;padding:6px 12px;border-radius:6px;border:1px solid #3246d3;background:#3246d3;color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
button.secondary{background:#fff;color:#3246d3} .notice{padding:8px 12px;border-radius:6px;background:#e8f5ec;color:#1d5b32;max-width:900px}
.error{background:#fdecec;color:#8a1f1f}`;

/** The admin page of app `name`: takes service:init from the platform only, and lets its backend verify the session token. */
export function adminPage(platformUrl: string, name: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(name)}</title><style>${STYLE}</style></head><body>
<h1 id="heading">${esc(name)}</h1>
<p id="status" class="muted" role="status">Waiting for the platform…</p>
<div id="notice" hidden></div>
<main id="view"></main>
<script type="module">
  import { createBridge } from ${json(platformUrl + "/sdk/bridge.js")};
  const $ = (id) => document.getElementById(id);
  let session = null;
  const el = (tag, props = {}, ...children) => {
    const node = Object.assign(document.createElement(tag), props);
    for (const c of children) node.append(c);
    return node;
  };
  async function call(body) {
    const res = await fetch("api/admin", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ ...body, session }) });
    const answer = await res.json().catch(() => ({ error: "The app answered " + res.status }));
    if (!res.ok) throw new Error(answer.error || "The app answered " + res.status);
    return answer;
  }
  function button(action, args, label, secondary) {
    const b = el("button", { type: "button", textContent: label, className: secondary ? "secondary" : "" });
    b.addEventListener("click", async () => {
      b.disabled = true;
      try { show(await call({ action, args })); } catch (e) { notice(e.message, true); } finally { b.disabled = false; }
    });
    return b;
  }
  function notice(text, error) {
    const n = $("notice");
    n.hidden = !text;
    n.className = "notice" + (error ? " error" : "");
    n.textContent = text || "";
  }
  function show(answer) {
    if (answer.session) session = answer.session;
    if (answer.open) window.open(answer.open, "_blank", "noopener");
    const v = answer.view;
    notice(answer.notice || "", false);
    if (!v) return;
    $("status").textContent = v.status || "";
    const root = $("view");
    root.replaceChildren();
    if (v.facts && v.facts.length) {
      const dl = el("dl");
      for (const [k, val] of v.facts) dl.append(el("dt", { textContent: k }), el("dd", { textContent: String(val) }));
      root.append(dl);
    }
    for (const a of v.actions || []) root.append(button(a.action, a.args || {}, a.label), " ");
    for (const l of v.links || []) root.append(el("a", { href: l.href, textContent: l.label, className: "button", target: "_blank", rel: "noopener" }), " ");
    for (const s of v.sections || []) {
      root.append(el("h2", { textContent: s.title }));
      if (!s.rows.length) { root.append(el("p", { className: "muted", textContent: s.empty || "Nothing yet." })); continue; }
      const table = el("table");
      const head = table.createTHead().insertRow();
      for (const c of s.columns) head.append(el("th", { textContent: c, scope: "col" }));
      const body = table.createTBody();
      for (const row of s.rows) {
        const tr = body.insertRow();
        for (const cell of row) {
          const td = tr.insertCell();
          if (cell && typeof cell === "object") td.append(button(cell.action, cell.args || {}, cell.label, true));
          else td.textContent = cell == null ? "" : String(cell);
        }
      }
      root.append(table);
    }
  }
  let started = false;
  createBridge({ hostOrigins: [${json(new URL(platformUrl).origin)}] }).onInit(async ({ sessionToken }) => {
    if (started) return;
    started = true;
    $("status").textContent = "Verifying your session…";
    try { show(await call({ sessionToken })); } catch (e) { $("status").textContent = "Refused: " + e.message; }
  });
</script></body></html>`;
}

/** Loyalty Stars' stamp card block: READY -> INIT -> UPDATE through the bridge, RESIZE to its height. */
export function stampCardPage(platformUrl: string, hostOrigins: string[]) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Stamp card — Loyalty Stars</title>
<style>body{margin:0;font-family:system-ui,sans-serif} #card{padding:16px 20px;border-radius:12px;color:#fff;background:#b45309}
#title{margin:0 0 10px;font-size:18px;font-weight:700} #stamps{display:flex;gap:8px;flex-wrap:wrap;margin:0;padding:0;list-style:none}
#stamps li{width:28px;height:28px;border-radius:50%;border:2px solid rgba(255,255,255,.8);display:grid;place-items:center;font-size:15px}
#stamps li:first-child{background:rgba(255,255,255,.9);color:#b45309}</style></head><body>
<div id="card"><p id="title">Collect a stamp with every order</p><ul id="stamps" aria-label="Stamp card"></ul></div>
<script type="module">
  import { createBridge } from ${json(platformUrl + "/sdk/bridge.js")};
  const bridge = createBridge({ hostOrigins: ${json(hostOrigins)} });
  const $ = (id) => document.getElementById(id);
  function render({ settings: s = {}, mode }) {
    if (mode) document.body.dataset.mode = mode;
    if (typeof s.color === "string") $("card").style.background = s.color;
    if (typeof s.title === "string" && s.title) $("title").textContent = s.title;
    const n = Math.min(12, Math.max(4, Number(s.stamps) || 8));
    $("stamps").replaceChildren(...Array.from({ length: n }, (_, i) => Object.assign(document.createElement("li"), { textContent: i === 0 ? "\\u2605" : "" })));
    bridge.resize();
  }
  render({});
  bridge.onInit(render).onUpdate(render).ready();
</script></body></html>`;
}

/** Loyalty Stars' GLOBAL_SCRIPT embed: a badge with the merchant's text. */
export function pointsBadgeScript() {
  return `(function () {
  var me = document.currentScript, settings = {};
  try { settings = JSON.parse((me && me.dataset.settings) || "{}"); } catch (e) {}
  var badge = document.createElement("div");
  badge.id = "loyalty-stars-badge";
  badge.textContent = "\\u2605 " + (settings.text || "Earn stars with every order");
  // in the page's flow, above its content: a script of a good neighbour never covers the shop's header or buttons
  badge.setAttribute("style", "display:block;width:max-content;max-width:90%;margin:8px auto 0;background:#b45309;color:#fff;padding:4px 10px;border-radius:999px;font:600 12px system-ui");
  function add() {
    var main = document.querySelector("main");
    if (main && main.parentNode) main.parentNode.insertBefore(badge, main); else document.body.appendChild(badge);
  }
  // the storefront re-renders nodes added before it is hydrated: wait for its signal
  if (document.documentElement.dataset.storefrontReady) add(); else window.addEventListener("storefront:ready", add, { once: true });
})();`;
}

/** Mailroom's FLOATING_WIDGET: a sign-up card whose form posts to the app (same origin as the frame). */
export function signupWidgetPage(platformUrl: string, hostOrigins: string[]) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Newsletter — Mailroom Campaigns</title>
<style>body{margin:0;font-family:system-ui,sans-serif} form{padding:12px 14px;border-radius:12px;background:#0f766e;color:#fff}
label{display:block;font-weight:600;margin-bottom:6px;font-size:14px} input{font:inherit;padding:5px 8px;border-radius:6px;border:0;width:62%}
button{font:inherit;padding:5px 10px;border-radius:6px;border:0;background:#fff;color:#0f766e;font-weight:600} #done{margin:6px 0 0;font-size:13px}</style></head><body>
<form id="form"><label for="email" id="prompt">New dishes and offers by e-mail?</label>
<input id="email" name="email" type="email" required placeholder="you@example.com"> <button>Sign up</button><p id="done" role="status"></p></form>
<script type="module">
  import { createBridge } from ${json(platformUrl + "/sdk/bridge.js")};
  const bridge = createBridge({ hostOrigins: ${json(hostOrigins)} });
  const $ = (id) => document.getElementById(id);
  let businessId = null;
  function render({ settings: s = {}, businessId: b }) {
    if (b) businessId = b;
    if (typeof s.prompt === "string" && s.prompt) $("prompt").textContent = s.prompt;
    bridge.resize();
  }
  $("form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const res = await fetch("signup", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ businessId, email: $("email").value }) });
    $("done").textContent = res.ok ? "Thank you! You are on the list." : "Sorry, that did not work.";
    bridge.resize();
  });
  bridge.onInit(render).onUpdate(render).ready();
</script></body></html>`;
}

export function messagePage(title: string, message: string, link?: { href: string; label: string }) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title><style>${STYLE}</style></head>
<body><main><h1>${esc(title)}</h1><p>${esc(message)}</p>${link ? `<p><a class="button" href="${esc(link.href)}">${esc(link.label)}</a></p>` : ""}</main></body></html>`;
}
