/**
 * `storefront-apps init <dir>` (contract 19): a working app to start from. It writes, into an empty
 * (or new) folder, a node:http server on the SDK with the OAuth callback, a verified webhook receiver,
 * a storefront block, an admin page that verifies its session token, a usage charge, the app's
 * configuration document (`storefront-apps.json`, what `deploy` sends as a release) and its own tests
 * (`npm test`: node's test runner, against the platform at PLATFORM_URL when it is set).
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { LATEST_API_VERSION } from "../../generated/versions.ts";
import { CliError, out } from "../shared.ts";

const PORT = 4000;

/** The app's configuration document: `storefront-apps deploy` sends it as a release. */
export function configDocument(name: string, base = `http://localhost:${PORT}`) {
  return {
    name,
    description: `${name}: a storefront block, an admin page and order webhooks.`,
    scopes: ["read_orders", "read_products"],
    redirectUrl: `${base}/oauth/callback`,
    webhookUrl: `${base}/webhooks`,
    webhookEvents: ["order.created"],
    pricing: [
      { id: "free", name: "Free", kind: "FREE" },
      {
        id: "usage",
        name: "Pro",
        kind: "RECURRING",
        price: { amount: 500, currency: "USD" },
        interval: "EVERY_30_DAYS",
        usageCap: { amount: 1000, currency: "USD" },
        usageTerms: "1 cent per order greeted",
      },
    ],
    apiVersion: LATEST_API_VERSION,
    manifest: {
      blocks: [
        {
          blockType: "hello",
          name: "Hello block",
          description: "A greeting on the storefront",
          renderUrl: `${base}/blocks/hello`,
          settingsSchema: {
            type: "object",
            properties: { greeting: { type: "string", title: "Greeting", maxLength: 80 } },
          },
          defaultConfig: { greeting: "Welcome!" },
        },
      ],
      adminPages: [{ pageId: "home", title: name.slice(0, 60), renderUrl: `${base}/admin` }],
    },
  };
}

const SERVER = `// The app's server: node:http and the SDK, nothing else (PORT, default ${PORT}).
import http from "node:http";
import { readFileSync } from "node:fs";
import {
  createAppApiClient,
  exchangeCode,
  nodeWebhookHandler,
  recordUsage,
  verifySessionToken,
} from "@storefront/app-sdk";

const env = process.env;
const PLATFORM_URL = env.PLATFORM_URL ?? "http://localhost:3000";
const CLIENT_ID = env.CLIENT_ID ?? "";
const CLIENT_SECRET = env.CLIENT_SECRET ?? "";
const config = JSON.parse(readFileSync(new URL("./storefront-apps.json", import.meta.url), "utf8"));

/** Each business's access token and webhook secret, from the OAuth callback (keep them in a database). */
export const installs = new Map();
/** What the webhooks brought (a real app would store and act on them). */
export const received = [];

const escape = (s) => String(s).replace(/[&<>"']/g, (c) => \`&#\${c.charCodeAt(0)};\`);
const page = (title, body) =>
  \`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>\${escape(title)}</title></head><body>\${body}</body></html>\`;

const webhooks = nodeWebhookHandler(
  // the secret of the business the delivery names (WEBHOOK_SECRET: one business, as in the tests)
  (unverified) => env.WEBHOOK_SECRET ?? installs.get(unverified.businessId)?.webhookSecret,
  (envelope) => {
    received.push(envelope);
  },
);

export const server = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://app");
  try {
    if (req.method === "POST" && url.pathname === "/webhooks") return await webhooks(req, res);
    if (req.method === "GET" && url.pathname === "/oauth/callback") {
      const tokens = await exchangeCode({
        platformUrl: PLATFORM_URL,
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        code: url.searchParams.get("code") ?? "",
        redirectUri: config.redirectUrl,
      });
      installs.set(tokens.business_id, { accessToken: tokens.access_token, webhookSecret: tokens.webhook_secret });
      res.writeHead(302, { Location: \`\${PLATFORM_URL}/admin/apps/\${tokens.installation_id}?installed=1\` });
      return res.end();
    }
    if (req.method === "GET" && url.pathname === "/blocks/hello") {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      return res.end(
        page(
          "Hello block",
          \`<p class="greeting" id="greeting">Welcome!</p>
<script type="module">
  // the storefront and the site builder hand the block its settings (SERVICE_BLOCK_INIT, then UPDATE)
  addEventListener("message", (e) => {
    const m = e.data;
    if (e.source !== parent || !m || !["SERVICE_BLOCK_INIT", "SERVICE_BLOCK_UPDATE"].includes(m.type)) return;
    if (typeof m.settings?.greeting === "string") document.getElementById("greeting").textContent = m.settings.greeting;
  });
  parent.postMessage({ type: "SERVICE_BLOCK_READY" }, "*");
</script>\`,
        ),
      );
    }
    if (req.method === "GET" && url.pathname === "/admin") {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      return res.end(
        page(
          config.name,
          \`<h1>\${escape(config.name)}</h1><p id="who">Checking who you are…</p>
<script type="module">
  // the admin hands the page a session token (service:init); the server verifies it
  addEventListener("message", async (e) => {
    if (e.source !== parent || e.data?.type !== "service:init") return;
    const res = await fetch("/api/session", { method: "POST", body: e.data.sessionToken });
    document.getElementById("who").textContent = res.ok ? "Hello, " + (await res.json()).name : "Not signed in";
  });
</script>\`,
        ),
      );
    }
    if (req.method === "POST" && url.pathname === "/api/session") {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      const claims = await verifySessionToken(Buffer.concat(chunks).toString(), {
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
      });
      res.writeHead(200, { "Content-Type": "application/json" });
      return res.end(JSON.stringify({ name: claims.name, businessId: claims.businessId }));
    }
    res.writeHead(404).end();
  } catch (e) {
    res.writeHead(400, { "Content-Type": "application/json" }).end(JSON.stringify({ error: e.message }));
  }
});

/** A usage charge of one cent on the business's subscription (the "usage" plan of storefront-apps.json). */
export async function chargeForOrder(businessId, subscriptionId, orderId) {
  const install = installs.get(businessId);
  const client = createAppApiClient({ baseUrl: PLATFORM_URL, accessToken: install.accessToken });
  return recordUsage(client, subscriptionId, { description: "Order greeted", amount: { amount: 1, currency: "USD" } }, orderId);
}

if (import.meta.url === \`file://\${process.argv[1]}\`) {
  const port = Number(env.PORT ?? ${PORT});
  server.listen(port, () => console.log(\`\${config.name} on http://localhost:\${port}\`));
}
`;

const TEST = `// The app's own tests: node --test (npm test). PLATFORM_URL: also checks the platform answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { signPayload } from "@storefront/app-sdk";

process.env.WEBHOOK_SECRET = "whsec_test_template";
const { server, received } = await import("../server.js");
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const base = \`http://127.0.0.1:\${server.address().port}\`;
test.after(() => server.close());

test("the configuration document names everything a release needs", () => {
  const config = JSON.parse(readFileSync(new URL("../storefront-apps.json", import.meta.url), "utf8"));
  for (const key of ["name", "description", "scopes", "redirectUrl", "webhookUrl", "webhookEvents", "pricing", "apiVersion", "manifest"])
    assert.ok(key in config, key);
  assert.equal(config.manifest.blocks[0].blockType, "hello");
});

test("a signed webhook is accepted and a forged one refused", async () => {
  const body = JSON.stringify({ id: "dlv_1", event: "order.created", timestamp: new Date().toISOString(), businessId: "biz_1", data: { id: "ord_1" } });
  const ts = Math.floor(Date.now() / 1000);
  const send = (signature) =>
    fetch(\`\${base}/webhooks\`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Webhook-Timestamp": String(ts), "X-Webhook-Signature": signature, "X-Webhook-Event": "order.created", "X-Webhook-Id": "wh_1", "X-Service-Event-Id": "dlv_1" },
      body,
    });
  assert.equal((await send(signPayload(process.env.WEBHOOK_SECRET, ts, body))).status, 200);
  assert.equal(received.length, 1);
  assert.equal((await send("0".repeat(64))).status, 401);
  assert.equal(received.length, 1);
});

test("the block page greets, and takes the merchant's greeting as text", async () => {
  const res = await fetch(\`\${base}/blocks/hello\`);
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.ok(html.includes('id="greeting">Welcome!<'), html);
  assert.ok(html.includes(".textContent = m.settings.greeting"), "never as HTML");
});

test("the platform answers", { skip: !process.env.PLATFORM_URL && "PLATFORM_URL is not set" }, async () => {
  const res = await fetch(new URL("/app-api/openapi.json", process.env.PLATFORM_URL));
  assert.equal(res.status, 200);
  assert.ok((await res.json()).paths["/app-api/orders"]);
});
`;

const README = (name: string) => `# ${name}

Made by \`storefront-apps init\`. Start it, then make it yours:

\`\`\`sh
npm install
npm test                                  # its own tests (PLATFORM_URL=... also checks the platform)
storefront-apps login                     # once; then create the app (apps create) or pick it (apps use)
echo CLIENT_SECRET=... >> .env            # the secret apps create printed (.env is git-ignored)
storefront-apps dev                       # everything below, in one terminal
\`\`\`

\`storefront-apps dev\` test-installs the app on your sandbox (its blocks on the sandbox's home page),
deploys \`storefront-apps.json\` as a release now and on every save (printing the diff), runs
\`npm start\` with PLATFORM_URL, CLIENT_ID, PORT and \`.env\` (restarted when it crashes or a file
changes), relays the sandbox's webhooks and hook calls to it, and stops it on Ctrl-C.

- \`server.js\`: the OAuth callback (\`/oauth/callback\`), the verified webhook receiver (\`/webhooks\`),
  the storefront block (\`/blocks/hello\`), the admin page (\`/admin\`, its session token verified at
  \`/api/session\`) and a usage charge (\`chargeForOrder\`).
- \`storefront-apps.json\`: the app's whole configuration; \`dev\` deploys each save, \`deploy\` sends it
  with a question first. Its URLs say where the app runs (\`localhost:${PORT}\`: \`dev\` starts it on
  that port; change them all to move it).
`;

/** `storefront-apps init <dir>`: refuses a folder that has files already. */
export function init(dir: string | undefined, sdkVersion = "^0.1.0") {
  if (!dir) throw new CliError("init <dir>: the folder to write the app into");
  const root = resolve(dir);
  if (existsSync(root) && readdirSync(root).length > 0)
    throw new CliError(`init: ${root} is not empty; choose a new folder`);
  const name = basename(root)
    .replace(/[-_]+/g, " ")
    .replace(/\b\w/g, (c) => c.toUpperCase())
    .slice(0, 60);
  const slug = basename(root)
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-");
  mkdirSync(join(root, "test"), { recursive: true });
  const files: Record<string, string> = {
    "package.json": JSON.stringify(
      {
        name: slug,
        private: true,
        type: "module",
        scripts: { start: "node server.js", test: "node --test" },
        dependencies: { "@storefront/app-sdk": sdkVersion },
        engines: { node: ">=20" },
      },
      null,
      2,
    ),
    "storefront-apps.json": JSON.stringify(configDocument(name), null, 2),
    "server.js": SERVER,
    "test/app.test.js": TEST,
    "README.md": README(name),
    ".gitignore": "node_modules\n.env\n",
  };
  for (const [file, text] of Object.entries(files))
    writeFileSync(join(root, file), text.endsWith("\n") ? text : text + "\n");
  out(`Wrote ${name} into ${root}:`);
  for (const file of Object.keys(files)) out(`  ${file}`);
  out("");
  out(`Next: cd ${dir} && npm install && npm test, then storefront-apps dev`);
}
