/**
 * The browser bridge for blocks, floating widgets and admin pages (contract 10).
 *
 * Use it from a bundle (`import { createBridge } from "@storefront/app-sdk/bridge"`) or without a
 * bundler, straight from the platform: `import { createBridge } from "https://<platform>/sdk/bridge.js"`.
 *
 *   const bridge = createBridge({ hostOrigins: ["https://platform.example", "https://shops.example"] });
 *   bridge.onInit((m) => render(m.settings));
 *   bridge.onUpdate((m) => render(m.settings));
 *   bridge.ready();
 *   bridge.resize(); // your document's height, or resize(240)
 *
 * It talks only to its parent window, only when the parent's origin is one of hostOrigins (the
 * platform's for the builder and admin pages, the storefront's for the storefront), posts with
 * that origin as targetOrigin (never "*"), and ignores every message whose event.source is not
 * the parent or whose origin is not the parent's.
 */

/** The origin of the window that frames this one, or "" when it cannot be known. */
export function parentOrigin(win = window) {
  try {
    if (win.location.ancestorOrigins && win.location.ancestorOrigins.length) return win.location.ancestorOrigins[0];
  } catch (e) {
    /* ignored */
  }
  try {
    return win.document.referrer ? new URL(win.document.referrer).origin : "";
  } catch (e) {
    return "";
  }
}

/**
 * @param {{ hostOrigins: string[], window?: Window }} options
 */
export function createBridge(options) {
  var win = options.window || window;
  var hosts = (options.hostOrigins || []).map(function (o) {
    return new URL(o).origin;
  });
  var origin = parentOrigin(win);
  var host = win.parent !== win && hosts.indexOf(origin) >= 0 ? origin : null;
  var initHandlers = [];
  var updateHandlers = [];
  var lastInit = null;

  function post(message) {
    if (host) win.parent.postMessage(message, host);
  }

  function onMessage(event) {
    if (!host || event.source !== win.parent || event.origin !== host) return;
    var m = event.data;
    if (!m || typeof m !== "object") return;
    if (m.type === "SERVICE_BLOCK_INIT" || m.type === "service:init") {
      lastInit = m;
      initHandlers.forEach(function (h) {
        h(m);
      });
    } else if (m.type === "SERVICE_BLOCK_UPDATE") {
      updateHandlers.forEach(function (h) {
        h(m);
      });
    }
  }
  win.addEventListener("message", onMessage);

  return {
    /** The host's origin, or null when this page is not framed by one of hostOrigins (then the bridge stays silent). */
    host: host,
    /** SERVICE_BLOCK_INIT (blocks, widgets) or service:init (admin pages); called at once when it already came. */
    onInit: function (handler) {
      initHandlers.push(handler);
      if (lastInit) handler(lastInit);
      return this;
    },
    /** SERVICE_BLOCK_UPDATE: new settings while the merchant edits them in the builder. */
    onUpdate: function (handler) {
      updateHandlers.push(handler);
      return this;
    },
    /** Tells the host the block is ready for SERVICE_BLOCK_INIT. */
    ready: function () {
      post({ type: "SERVICE_BLOCK_READY" });
      return this;
    },
    /** Asks the host for a height in pixels (the document's height when left out); the host clamps it to 0-400. */
    resize: function (height) {
      var h = typeof height === "number" ? height : win.document.documentElement.scrollHeight;
      post({ type: "SERVICE_BLOCK_RESIZE", height: Math.max(0, Math.round(h)) });
      return this;
    },
    /** Stops listening. */
    close: function () {
      win.removeEventListener("message", onMessage);
    },
  };
}
