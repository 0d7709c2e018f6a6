/**
 * storefront-apps: the app developer's command line (docs/developers/getting-started.md).
 *
 *   storefront-apps login --email you@example.com [--password ...] [--platform https://platform.example]
 *   storefront-apps apps list | apps create --name N --slug S --scopes read_orders,read_products --redirect-url U [--webhook-url U] [--webhook-events a,b] [--category C]
 *   storefront-apps manifest push [--app ID] [--file manifest.json] [--dry-run]
 *   storefront-apps test-install [--app ID]
 *   storefront-apps trigger [<event>] [--app ID] | trigger hook <point> [--app ID]
 *   storefront-apps listen --forward-to http://localhost:4000/webhooks [--app ID]
 *   storefront-apps dev [--forward-to http://localhost:4000] [--file manifest.json] [--app ID]
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline/promises";
import { dev } from "./dev.ts";

type Config = { platformUrl?: string; token?: string; email?: string; appId?: string };

export function configDir(env = process.env): string {
  return env.STOREFRONT_APPS_CONFIG_DIR ?? join(env.XDG_CONFIG_HOME ?? join(homedir(), ".config"), "storefront-apps");
}
const configFile = () => join(configDir(), "config.json");

function readConfig(): Config {
  try {
    return JSON.parse(readFileSync(configFile(), "utf8")) as Config;
  } catch {
    return {};
  }
}

function writeConfig(config: Config) {
  mkdirSync(configDir(), { recursive: true, mode: 0o700 });
  writeFileSync(configFile(), JSON.stringify(config, null, 2) + "\n", { mode: 0o600 });
  chmodSync(configFile(), 0o600); // also when the file existed with a wider mode
}

class CliError extends Error {}

function parseArgs(argv: string[]) {
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith("--")) {
      const [name, inline] = a.slice(2).split(/=(.*)/s, 2);
      if (inline !== undefined) flags[name] = inline;
      else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith("--")) flags[name] = argv[++i];
      else flags[name] = true;
    } else positional.push(a);
  }
  return { positional, flags };
}

const str = (v: string | true | undefined) => (typeof v === "string" ? v : undefined);
const list = (v: string | true | undefined) =>
  str(v)
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);

function platformUrl(flags: Record<string, string | true>, config: Config) {
  return (
    str(flags.platform) ??
    process.env.STOREFRONT_APPS_URL ??
    config.platformUrl ??
    "http://localhost:3000"
  ).replace(/\/+$/, "");
}

async function api(config: Config, method: string, path: string, body?: unknown) {
  if (!config.token) throw new CliError("Not logged in: run `storefront-apps login` first");
  const res = await fetch(config.platformUrl + path, {
    method,
    headers: {
      Authorization: `Bearer ${config.token}`,
      ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  if (res.status === 401)
    throw new CliError("The platform refused the saved login (expired?): run `storefront-apps login` again");
  if (!res.ok)
    throw new CliError(
      `${method} ${path} answered ${res.status}: ${json?.message ?? json?.error ?? text.slice(0, 200)}`,
    );
  return json;
}

function appIdOf(flags: Record<string, string | true>, config: Config) {
  const id = str(flags.app) ?? config.appId;
  if (!id) throw new CliError("Which app? Pass --app <id> (or create one with `storefront-apps apps create`)");
  return id;
}

async function prompt(question: string) {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

const out = (line = "") => process.stdout.write(line + "\n");

async function login(flags: Record<string, string | true>) {
  const config = readConfig();
  const url = platformUrl(flags, config);
  const email = str(flags.email) ?? (await prompt("Email: "));
  const password = str(flags.password) ?? process.env.STOREFRONT_APPS_PASSWORD ?? (await prompt("Password: "));
  const res = await fetch(url + "/auth/login", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  const json = (await res.json().catch(() => ({}))) as {
    token?: string;
    account?: { role?: string; name?: string };
    message?: string;
  };
  if (!res.ok || !json.token)
    throw new CliError(`Login failed (${res.status}): ${json.message ?? "wrong email or password"}`);
  if (json.account?.role !== "DEVELOPER") throw new CliError("This account is not a developer account");
  writeConfig({ ...config, platformUrl: url, token: json.token, email });
  out(`Logged in to ${url} as ${email}. Token saved in ${configFile()} (mode 600).`);
}

async function apps(sub: string | undefined, flags: Record<string, string | true>) {
  const config = readConfig();
  if (sub === "list" || sub === undefined) {
    const page = await api(config, "GET", "/developer/apps?limit=100");
    if (page.data.length === 0) out("No apps yet: `storefront-apps apps create --name ...`");
    for (const a of page.data)
      out(
        `${a.id}  ${a.slug.padEnd(24)} ${a.status.padEnd(15)} ${a.name}${a.id === config.appId ? "  (current)" : ""}`,
      );
    return;
  }
  if (sub === "use") {
    const id = str(flags.app) ?? process.argv[4];
    await api(config, "GET", `/developer/apps/${encodeURIComponent(id)}`);
    writeConfig({ ...config, appId: id });
    return out(`Current app: ${id}`);
  }
  if (sub !== "create") throw new CliError(`Unknown: apps ${sub} (list, create, use)`);
  const name = str(flags.name);
  if (!name) throw new CliError("apps create needs --name");
  const slug =
    str(flags.slug) ??
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "");
  const body = {
    name,
    slug,
    description: str(flags.description) ?? `${name} (created with storefront-apps)`,
    category: str(flags.category) ?? "other",
    scopes: list(flags.scopes) ?? ["read_orders"],
    redirectUrl: str(flags["redirect-url"]) ?? "http://localhost:4000/oauth/callback",
    ...(str(flags["webhook-url"]) ? { webhookUrl: str(flags["webhook-url"]) } : {}),
    ...(list(flags["webhook-events"]) ? { webhookEvents: list(flags["webhook-events"]) } : {}),
  };
  const app = await api(config, "POST", "/developer/apps", body);
  writeConfig({ ...config, appId: app.id });
  out(`Created ${app.name} (${app.status}); it is now the current app.`);
  out(`  app id:        ${app.id}`);
  out(`  client id:     ${app.clientId}`);
  out(`  client secret: ${app.clientSecret}   (shown once: keep it in your app's secrets)`);
}

async function manifestPush(flags: Record<string, string | true>) {
  const config = readConfig();
  const id = appIdOf(flags, config);
  const file = str(flags.file) ?? "manifest.json";
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new CliError(`Cannot read ${file}: ${(e as Error).message}`);
  }
  const dry = flags["dry-run"] === true;
  const result = await api(
    config,
    "PUT",
    `/developer/apps/${encodeURIComponent(id)}/manifest${dry ? "?dryRun=true" : ""}`,
    manifest,
  );
  const sync = result.sync ?? {};
  out(dry ? "Dry run: nothing changed. The push would:" : "Manifest pushed:");
  for (const [label, items] of [
    ["create", sync.created],
    ["update", sync.updated],
    ["deactivate", sync.deactivated],
  ] as const)
    out(`  ${label.padEnd(10)} ${(items as string[] | undefined)?.join(", ") || "-"}`);
}

async function testInstall(flags: Record<string, string | true>) {
  const config = readConfig();
  const id = appIdOf(flags, config);
  const r = await api(config, "POST", `/developer/apps/${encodeURIComponent(id)}/test-install`);
  out(`Installed on your sandbox business ${r.businessId} (test installation ${r.installationId}).`);
  out(`  access token:   ${r.accessToken}`);
  out(`  webhook secret: ${r.webhookSecret}`);
}

/** The events of the catalogue and the hook points, as the platform's document lists them. */
const EVENTS = [
  "order.created",
  "order.status_changed",
  "order.delivered",
  "order.cancelled",
  "payment.completed",
  "payment.expired",
  "product.created",
  "product.updated",
  "product.deleted",
  "product.out_of_stock",
  "product.low_stock",
  "product.back_in_stock",
  "review.created",
  "review.deleted",
  "business.data_erasure",
  "app.uninstalled",
  "customer.data_request",
  "customer.redact",
  "app_subscription.updated",
  "webhook.test",
];
const HOOK_POINTS = [
  "checkout.payment_methods",
  "checkout.create_payment",
  "checkout.shipping_rates",
  "order.validate",
  "order.calculate_discounts",
];

/**
 * `version`: the app's pinned API version and its status; `version --set X`: first the changes that
 * lie between the pin and X (from the platform's registry), then the pin moved (`--yes` skips the
 * question).
 */
async function version(flags: Record<string, string | true>) {
  const config = readConfig();
  const id = appIdOf(flags, config);
  const app = await api(config, "GET", `/developer/apps/${encodeURIComponent(id)}`);
  const versions = (await fetch(config.platformUrl + "/app-api/versions").then((r) => r.json())) as {
    current: string;
    supported: { version: string; status: string; sunsetAt?: string }[];
  };
  const state = versions.supported.find((v) => v.version === app.apiVersion);
  const describe = (v: string) => {
    const s = versions.supported.find((x) => x.version === v);
    if (!s) return "past its sunset";
    return s.status.toLowerCase() + (s.sunsetAt ? `, sunset ${s.sunsetAt.slice(0, 10)}` : "");
  };
  const target = str(flags.set);
  if (!target) {
    out(`${app.name} is pinned to API version ${app.apiVersion} (${describe(app.apiVersion)}).`);
    out(`Supported: ${versions.supported.map((v) => `${v.version} (${describe(v.version)})`).join(", ")}.`);
    if (app.apiVersion !== versions.current) {
      out(`Changes up to the current version ${versions.current}:`);
      await printChanges(config, app.apiVersion, versions.current);
    }
    return;
  }
  if (!versions.supported.some((v) => v.version === target))
    throw new CliError(
      `${target} is not a supported API version; supported: ${versions.supported.map((v) => v.version).join(", ")}`,
    );
  if (target === app.apiVersion) return out(`${app.name} is already pinned to ${target}.`);
  out(`Moving ${app.name} from ${app.apiVersion}${state ? "" : " (past its sunset)"} to ${target} changes:`);
  await printChanges(config, app.apiVersion, target);
  if (flags.yes !== true) {
    const answer = await prompt("Switch now? [y/N] ");
    if (!/^y(es)?$/i.test(answer)) return out("Nothing changed.");
  }
  const updated = await api(config, "PATCH", `/developer/apps/${encodeURIComponent(id)}`, { apiVersion: target });
  out(`${app.name} is now pinned to ${updated.apiVersion}: its answers, webhooks and hook calls use it from now on.`);
}

async function printChanges(config: Config, from: string, to: string) {
  const res = await fetch(
    `${config.platformUrl}/app-api/versions/changes?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
  );
  const body = (await res.json()) as {
    direction: string;
    changes: { version: string; summary: string; url: string }[];
    message?: string;
  };
  if (!res.ok) throw new CliError(`the platform answered ${res.status}: ${body.message ?? ""}`);
  if (body.changes.length === 0) out("  (no change lies between them)");
  for (const c of body.changes)
    out(`  ${c.version}${body.direction === "downgrade" ? " (undone)" : ""}: ${c.summary}\n    ${c.url}`);
}

async function trigger(event: string | undefined, flags: Record<string, string | true>) {
  const config = readConfig();
  if (event === "hook") return triggerHook(str(flags.point) ?? process.argv[4], flags, config);
  if (!event) {
    out("trigger <event> makes the event happen on your sandbox and sends it to your test installation only:");
    for (const e of EVENTS) out(`  ${e}`);
    out("trigger hook <point> calls your hook as a sandbox checkout would:");
    for (const p of HOOK_POINTS) out(`  ${p}`);
    return;
  }
  const id = appIdOf(flags, config);
  const r = await api(config, "POST", `/developer/apps/${encodeURIComponent(id)}/trigger`, { event });
  out(
    `Triggered ${r.event} (event ${r.eventId}) on your sandbox business ${r.businessId}, from ${r.object.kind} ${r.object.id}.`,
  );
  for (const d of r.deliveries) out(`  delivery ${d.id} -> ${d.url} (registration ${d.webhookId})`);
}

async function triggerHook(point: string | undefined, flags: Record<string, string | true>, config: Config) {
  if (!point) throw new CliError(`trigger hook needs a hook point: ${HOOK_POINTS.join(", ")}`);
  const id = appIdOf(flags, config);
  const r = await api(config, "POST", `/developer/apps/${encodeURIComponent(id)}/trigger-hook`, { hookPoint: point });
  out(
    `Cart: ${r.cart.items.map((i: { quantity: number; name: string }) => `${i.quantity} x ${i.name}`).join(", ")}, subtotal ${r.cart.subtotal} (${r.cart.currency} minor units), ${r.cart.deliveryMethod}`,
  );
  if (r.calls.length === 0) out(`Your ${point} hook was not called.`);
  for (const c of r.calls)
    out(
      c.ok
        ? `Your hook answered ${c.statusCode} in ${c.durationMs} ms: ${JSON.stringify(c.answer)}`
        : `Your hook's call was skipped (${c.statusCode ?? "no answer"}, ${c.durationMs} ms): ${c.error}`,
    );
  out(`The platform: ${r.outcome.summary}`);
}

/** Parses a Server-Sent Events stream into (event, data) pairs. */
async function* sse(body: ReadableStream<Uint8Array>) {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
      }
      if (data.length) yield { event, data: data.join("\n") };
    }
  }
}

/**
 * Headers of a relayed call that are not forwarded: they describe the platform's connection, not the
 * call, and fetch sets its own. Every other header the platform sent (Api-Version, the signature and
 * its timestamp, the ids, X-Hook-Point, User-Agent, and any added later) reaches the local server.
 */
const CONNECTION_HEADERS = new Set([
  "host",
  "connection",
  "content-length",
  "transfer-encoding",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "expect",
  "proxy-authorization",
  "proxy-connection",
]);

/** The headers the local server receives for a relayed call: every header of the platform's call, as a direct POST carries them. */
function forwardedHeaders(headers: Record<string, string>): Record<string, string> {
  const forwarded: Record<string, string> = { "Content-Type": "application/json" };
  for (const [name, value] of Object.entries(headers)) {
    if (CONNECTION_HEADERS.has(name.toLowerCase()) || typeof value !== "string") continue;
    if (name.toLowerCase() === "content-type") delete forwarded["Content-Type"];
    forwarded[name] = value;
  }
  return forwarded;
}

type SandboxInstallation = { installationId: string; isTestInstall: boolean } | null;

/** The first line of `listen`: what is relayed, given the app's installation on the sandbox (undefined: a platform that does not say). */
function listeningLine(name: string, installation: SandboxInstallation | undefined, forwardTo: string) {
  const what =
    installation === undefined || installation?.isTestInstall
      ? "its test installation"
      : installation
        ? `its installation on your sandbox (a production installation since the app's approval)`
        : "its test installation (none on your sandbox yet: run `storefront-apps test-install`)";
  return `Listening for ${name}: webhooks and hook calls of ${what} go to ${forwardTo}. Ctrl-C to stop.`;
}

async function listen(flags: Record<string, string | true>) {
  const config = readConfig();
  const id = appIdOf(flags, config);
  const forwardTo = str(flags["forward-to"]);
  if (!forwardTo || !/^https?:\/\//.test(forwardTo))
    throw new CliError("listen needs --forward-to <http(s) URL of your local server>");
  if (!config.token) throw new CliError("Not logged in: run `storefront-apps login` first");
  const stop = new AbortController();
  let stopping = false;
  const onSignal = () => {
    if (stopping) process.exit(130);
    stopping = true;
    out("Stopping: deliveries go to the app's URLs again.");
    stop.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  const handle = async (call: {
    callId: string;
    kind: string;
    path: string;
    headers: Record<string, string>;
    body: string;
  }) => {
    const target = call.path ? forwardTo.replace(/\/+$/, "") + "/" + call.path.replace(/^\/+/, "") : forwardTo;
    const what =
      call.kind === "hook" ? `hook ${call.headers["X-Hook-Point"]}` : `webhook ${call.headers["X-Webhook-Event"]}`;
    const started = Date.now();
    let status = 0;
    let body = "";
    try {
      const res = await fetch(target, {
        method: "POST",
        headers: forwardedHeaders(call.headers),
        body: call.body,
        redirect: "manual",
        signal: AbortSignal.timeout(10_000),
      });
      status = res.status;
      body = (await res.text()).slice(0, 1024 * 1024);
    } catch (e) {
      const error = e as Error & { cause?: { code?: string } };
      body =
        error.name === "TimeoutError"
          ? "no answer within 10 s"
          : [error.message, error.cause?.code].filter(Boolean).join(": ");
    }
    out(
      `${new Date().toISOString().slice(11, 19)}  ${what.padEnd(36)} -> ${target}  ${status || "unreachable"} (${Date.now() - started} ms)`,
    );
    if (!status)
      out(`  ${body}: is your local server running at ${target}? The platform counts this as a failed attempt.`);
    const res = await fetch(
      `${config.platformUrl}/developer/apps/${encodeURIComponent(id)}/listen/${encodeURIComponent(call.callId)}/answer`,
      {
        method: "POST",
        headers: { Authorization: `Bearer ${config.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ status, body }),
      },
    ).catch((e: Error) => ({ ok: false, status: 0, statusText: e.message }) as Response);
    if (!res.ok) out(`  (the platform did not take the answer: ${res.status}; the call had timed out?)`);
  };

  let first = true;
  while (!stopping) {
    try {
      const res = await fetch(`${config.platformUrl}/developer/apps/${encodeURIComponent(id)}/listen`, {
        headers: { Authorization: `Bearer ${config.token}`, Accept: "text/event-stream" },
        signal: stop.signal,
      });
      if (res.status === 401)
        throw new CliError("The platform refused the saved login (expired?): run `storefront-apps login` again");
      if (!res.ok || !res.body)
        throw new CliError(`listen answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
      for await (const { event, data } of sse(res.body)) {
        if (event === "ready") {
          const info = JSON.parse(data) as { name: string; installation?: SandboxInstallation };
          out(first ? listeningLine(info.name, info.installation, forwardTo) : "Reconnected.");
          first = false;
        } else if (event === "installation") {
          // the installation on the sandbox changed under us (review approval made it a production one, an uninstall…)
          out(`${new Date().toISOString().slice(11, 19)}  ${(JSON.parse(data) as { message: string }).message}`);
        } else if (event === "call") void handle(JSON.parse(data));
      }
    } catch (e) {
      if (stopping) break;
      if (e instanceof CliError) throw e;
      out(`Connection lost (${(e as Error).message}); reconnecting…`);
    }
    if (!stopping) await new Promise((r) => setTimeout(r, 1000));
  }
}

const HELP = `storefront-apps <command>

  login [--email E] [--password P] [--platform URL]   sign in as a developer (token kept in ${configDir()}, mode 600)
  apps list                                            your apps
  apps create --name N [--slug S] [--scopes a,b] [--redirect-url U] [--webhook-url U] [--webhook-events a,b] [--category C]
  apps use --app ID                                    make an app the current one
  manifest push [--file manifest.json] [--dry-run]     upload the manifest; shows the sync plan
  test-install                                         install the current app on your sandbox business
  trigger [<event>]                                    make the event happen on your sandbox, for the test installation only
                                                       (no event: lists them all)
  trigger hook <point>                                 call your hook as a sandbox checkout would; shows its answer and what the platform made of it
  listen --forward-to URL                              relay the test installation's webhooks and hook calls to a local server
  dev [--forward-to URL] [--file manifest.json]        test-install when needed, push the manifest on every save,
                                                       print the sandbox's storefront and site builder, and listen
  version [--set YYYY-MM-DD] [--yes]                   the app's pinned API version; --set shows the changes in between, then moves it

Every command takes --app ID (default: the current app) and --platform URL (default: the one you logged in to).`;

export async function main(argv: string[]) {
  const { positional, flags } = parseArgs(argv);
  const [command, sub] = positional;
  switch (command) {
    case "login":
      return login(flags);
    case "apps":
      return apps(sub, flags);
    case "manifest":
      if (sub !== "push") throw new CliError("manifest push [--dry-run]");
      return manifestPush(flags);
    case "test-install":
      return testInstall(flags);
    case "trigger":
      return trigger(sub, flags);
    case "listen":
      return listen(flags);
    case "dev": {
      const config = readConfig();
      return dev({
        appId: appIdOf(flags, config),
        file: str(flags.file) ?? "manifest.json",
        forwardTo: str(flags["forward-to"]),
        api: (method, path, body) => api(config, method, path, body),
        out,
        listen: () => listen(flags),
      });
    }
    case "version":
      return version(flags);
    case undefined:
    case "help":
    case "--help":
      return out(HELP);
    default:
      throw new CliError(`Unknown command ${command}\n\n${HELP}`);
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(
      (error instanceof CliError ? error.message : ((error as Error).stack ?? String(error))) + "\n",
    );
    process.exit(1);
  },
);
