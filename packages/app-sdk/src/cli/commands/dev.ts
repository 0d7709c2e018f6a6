/**
 * `storefront-apps dev`: the developer's loop in one command, as Shopify CLI's `app dev`
 * (docs/developers/sdk.md, decision 086).
 *
 * 1. Pushes the app's configuration now and whenever it is saved. With `storefront-apps.json` in the
 *    folder (or `--config`), the whole document is deployed as a release, as `deploy` does without
 *    its question: its diff is planned first (`POST /developer/apps/<id>/releases?dryRun=true`), an
 *    unchanged document is not released, any other is and its diff printed. Without it (or with
 *    `--file`), `manifest.json` is pushed: each version is planned
 *    (`PUT /developer/apps/<id>/manifest?dryRun=true`); a plan that changes nothing is not pushed.
 *    A file that is not JSON, or that the platform refuses (its 400 naming the field), is reported;
 *    the app keeps its last good configuration and dev keeps running.
 * 2. Test-installs the app on the developer's sandbox business when it is not installed there yet
 *    (with the scopes and webhooks just pushed; the access token and webhook secret are printed
 *    once, as `test-install` does, handed to the app's server and kept in the folder's .env when
 *    .gitignore ignores it), and then puts the app's blocks on the sandbox's home page.
 * 3. Starts the app's own server (the folder's `dev` or `start` script, or `--command`) with
 *    PLATFORM_URL, CLIENT_ID, PORT and the .env file's variables; restarts it when it crashes or a
 *    source file changes; stops its whole process group when dev stops (app-server.ts).
 * 4. Prints the sandbox's storefront, site builder and admin (`GET /developer/sandbox`).
 * 5. Runs `listen`, relaying the test installation's webhooks and hook calls to `--forward-to`, or,
 *    when dev runs the app's server, to that server (the path of the app's webhook URL on
 *    localhost:PORT); with neither, waits for Ctrl-C.
 */
import { existsSync, readFileSync, watch, writeFileSync, type FSWatcher } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { appServer, readDotEnv } from "./app-server.ts";
import { diffLines, type DiffEntry } from "./deploy.ts";

type Api = (method: string, path: string, body?: unknown) => Promise<any>;

export type DevOptions = {
  appId: string;
  /** The manifest file (default manifest.json in the working directory), pushed when there is no `configFile`. */
  file: string;
  /** The configuration document (storefront-apps.json): when set, it is deployed as releases instead of the manifest. */
  configFile?: string;
  /** Where `listen` relays calls; without it, to the app's server when dev runs one, else nowhere. */
  forwardTo?: string;
  /** The app's folder (default the working directory): its server, .env and .gitignore. */
  dir?: string;
  /** The app's server: the shell command and how to call it in messages; null: dev runs none. */
  server?: { command: string; label: string } | null;
  /** The port the app's server listens on (PORT in its environment). */
  port?: number;
  /** The platform's address, PLATFORM_URL in the server's environment. */
  platformUrl?: string;
  api: Api;
  out: (line?: string) => void;
  /** `storefront-apps listen` with the same app, relaying to the URL; resolves when it stops (Ctrl-C). */
  listen: (forwardTo: string) => Promise<void>;
};

type SyncPlan = { created?: string[]; updated?: string[]; deactivated?: string[] };

/** The plan as lines: `create   block:stars`; empty when nothing changes. */
export function planLines(sync: SyncPlan): string[] {
  const lines: string[] = [];
  for (const [label, items] of [
    ["create", sync.created],
    ["update", sync.updated],
    ["deactivate", sync.deactivated],
  ] as const)
    if (items?.length) lines.push(`  ${label.padEnd(10)} ${items.join(", ")}`);
  return lines;
}

/**
 * Sends each new version of a JSON file as it is saved: the file read, an unchanged text skipped, a
 * text that is not JSON reported (the last good version stays), one send at a time in the order of
 * the saves; `start()` sends the first and begins watching, `settled()` resolves once the sends
 * started so far are done, `close()` stops watching.
 */
function jsonFileSender(
  file: string,
  out: DevOptions["out"],
  missing: () => string,
  send: (doc: unknown) => Promise<void>,
) {
  let last: string | null = null;
  let running: Promise<void> = Promise.resolve();
  const sendOnce = async () => {
    if (!existsSync(file)) {
      if (last !== "") out(missing());
      last = "";
      return;
    }
    const text = readFileSync(file, "utf8");
    if (text === last) return;
    last = text;
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      out(`${time()}  ${file} is not JSON (${(e as Error).message}); waiting for the next save.`);
      return;
    }
    await send(doc);
  };
  const push = () => (running = running.then(sendOnce, sendOnce));
  const watcher = watchSaves(file, () => void push());
  return {
    start: async () => {
      await push();
      watcher.start();
    },
    settled: () => running,
    close: () => watcher.close(),
  };
}

/** Pushes each new version of the manifest file; `close()` stops watching. */
export function manifestPusher({ appId, file, api, out }: Pick<DevOptions, "appId" | "file" | "api" | "out">) {
  const path = `/developer/apps/${encodeURIComponent(appId)}/manifest`;
  return jsonFileSender(
    file,
    out,
    () => `No ${file}: the app keeps the manifest it has. Create the file and it is pushed.`,
    async (manifest) => {
      try {
        const plan = await api("PUT", `${path}?dryRun=true`, manifest);
        if (planLines(plan.sync ?? {}).length === 0) {
          out(`${time()}  Manifest ${file}: up to date, nothing to sync.`);
          return;
        }
        const pushed = await api("PUT", path, manifest);
        out(`${time()}  Manifest ${file} pushed:`);
        for (const line of planLines(pushed.sync ?? {})) out(line);
      } catch (e) {
        out(`${time()}  Manifest ${file} refused: ${(e as Error).message}`);
        out("  The app keeps its last good manifest; fix the file and save again.");
      }
    },
  );
}

/** Calls `onSave` after each save of `file` (debounced); `start()` begins, `close()` ends. */
function watchSaves(file: string, onSave: () => void) {
  // the directory, not the file: editors save by replacing the file, which ends a watch on it
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | null = null;
  return {
    start: () => {
      watcher = watch(dirname(resolve(file)), (_event, name) => {
        if (name !== null && name.toString() !== basename(file)) return;
        clearTimeout(timer);
        timer = setTimeout(onSave, 100);
      });
    },
    close: () => {
      clearTimeout(timer);
      watcher?.close();
    },
  };
}

/** Keys of storefront-apps.json that are the CLI's, not the release's. */
const CLI_KEYS = ["$schema", "appId"];

/** Deploys each new version of the configuration document as a release, printing its diff; `close()` stops watching. */
export function configPusher({ appId, file, api, out }: Pick<DevOptions, "appId" | "api" | "out"> & { file: string }) {
  const path = `/developer/apps/${encodeURIComponent(appId)}/releases`;
  return jsonFileSender(
    file,
    out,
    () => `${time()}  No ${file}: the app keeps the configuration it has. Create the file and it is deployed.`,
    async (doc) => {
      if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
        out(`${time()}  ${file} must be a JSON object; waiting for the next save.`);
        return;
      }
      const config = { ...(doc as Record<string, unknown>) };
      for (const k of CLI_KEYS) delete config[k];
      const body = { config, message: `storefront-apps dev: ${basename(file)} saved` };
      try {
        const plan = (await api("POST", `${path}?dryRun=true`, body)) as { diff: DiffEntry[] };
        if (plan.diff.length === 0) {
          out(`${time()}  ${file}: the current release, nothing to deploy.`);
          return;
        }
        const made = (await api("POST", path, body)) as { version: number; diff: DiffEntry[]; status: string };
        out(
          `${time()}  ${file} deployed: release ${made.version}, ${made.status === "IN_REVIEW" ? "in review (its scopes or pricing differ from the approved ones; the rest is live)" : "live"}:`,
        );
        for (const line of diffLines(made.diff)) out(line);
      } catch (e) {
        out(`${time()}  ${file} refused: ${(e as Error).message}`);
        out("  The app keeps its last release; fix the file and save again.");
      }
    },
  );
}

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The port of the first local URL of a configuration document (redirectUrl, webhookUrl, the extensions' URLs). */
export function localPort(doc: unknown): number | undefined {
  if (typeof doc !== "object" || doc === null) return undefined;
  const d = doc as { redirectUrl?: unknown; webhookUrl?: unknown; manifest?: Record<string, unknown> };
  const urls: unknown[] = [d.redirectUrl, d.webhookUrl];
  for (const list of Object.values(d.manifest ?? {}))
    if (Array.isArray(list)) for (const item of list) urls.push((item as { renderUrl?: unknown })?.renderUrl);
  for (const u of urls) {
    if (typeof u !== "string") continue;
    try {
      const url = new URL(u);
      if (LOCAL_HOSTS.has(url.hostname)) return Number(url.port || (url.protocol === "https:" ? 443 : 80));
    } catch {
      /* not a URL */
    }
  }
  return undefined;
}

/** Sets KEY=value lines in a .env file, keeping its other lines. */
function saveDotEnv(file: string, vars: Record<string, string>) {
  const lines = existsSync(file) ? readFileSync(file, "utf8").split("\n") : [];
  for (const [key, value] of Object.entries(vars)) {
    const at = lines.findIndex((l) => new RegExp(`^\\s*(export\\s+)?${key}\\s*=`).test(l));
    if (at >= 0) lines[at] = `${key}=${value}`;
    else
      lines.splice(
        lines.length && lines[lines.length - 1] === "" ? lines.length - 1 : lines.length,
        0,
        `${key}=${value}`,
      );
  }
  writeFileSync(file, lines.join("\n").replace(/\n*$/, "\n"), { mode: 0o600 });
}

/** True when the folder's .gitignore ignores .env (so that secrets written there stay out of the repository). */
function ignoresDotEnv(dir: string) {
  const file = join(dir, ".gitignore");
  return (
    existsSync(file) &&
    readFileSync(file, "utf8")
      .split(/\r?\n/)
      .some((l) => /^\/?\.env$/.test(l.trim()))
  );
}

/** Puts each active block of the app on the sandbox's home page (the developer's token reaches the sandbox's pages). */
async function placeBlocks(api: Api, appId: string, out: (line?: string) => void) {
  const app = await api("GET", `/developer/apps/${encodeURIComponent(appId)}`);
  const blocks = (
    (app.manifest?.blocks ?? []) as { blockType: string; name: string; defaultConfig?: unknown }[]
  ).filter((b) => b.blockType);
  if (blocks.length === 0) return;
  const home = await api("GET", "/merchant/pages/home");
  const placed = (home.blocks as { kind: string; appId?: string }[]).filter(
    (b) => b.kind === "app" && b.appId === appId,
  );
  if (placed.length > 0) return;
  await api("PUT", "/merchant/pages/home", {
    title: home.title,
    isPublished: home.isPublished,
    blocks: [
      ...home.blocks,
      ...blocks.map((b) => ({ kind: "app", type: b.blockType, appId, settings: b.defaultConfig ?? {} })),
    ],
  });
  out(
    `Put ${blocks.map((b) => b.name).join(", ")} on your sandbox's home page (move or remove it in the site builder).`,
  );
}

const time = () => new Date().toISOString().slice(11, 19);

export async function dev(options: DevOptions) {
  const { appId, api, out } = options;
  const dir = resolve(options.dir ?? ".");
  const id = encodeURIComponent(appId);
  const app = await api("GET", `/developer/apps/${id}`);
  out(`${app.name} (${app.status}), app ${app.id}`);

  // the configuration first: a test installation made now takes its scopes and webhooks from it
  const pusher = options.configFile
    ? configPusher({ appId, file: options.configFile, api, out })
    : manifestPusher(options);
  await pusher.start();

  const secrets: Record<string, string> = {};
  const status = await api("GET", `/developer/apps/${id}/test-status`);
  if (status.installed) {
    out(`Test installation ${status.installation.installationId} on your sandbox: already installed.`);
  } else {
    const r = await api("POST", `/developer/apps/${id}/test-install`);
    out(`Test-installed on your sandbox business ${r.businessId} (installation ${r.installationId}).`);
    out(`  access token:   ${r.accessToken}`);
    out(`  webhook secret: ${r.webhookSecret}   (both shown once: keep them in your app's secrets)`);
    secrets.ACCESS_TOKEN = r.accessToken;
    secrets.WEBHOOK_SECRET = r.webhookSecret;
    if (options.server && ignoresDotEnv(dir)) {
      saveDotEnv(join(dir, ".env"), secrets);
      out("  Kept in .env (ignored by git) as ACCESS_TOKEN and WEBHOOK_SECRET for your app's server.");
    }
  }

  if (Object.keys(secrets).length > 0)
    await placeBlocks(api, appId, out).catch((e: Error) =>
      out(`Could not put the app's blocks on your sandbox's home page: ${e.message}`),
    );

  // the app's own server, with what it needs from the platform
  let server: ReturnType<typeof appServer> | null = null;
  let forwardTo = options.forwardTo;
  if (options.server) {
    const port = options.port ?? 4000;
    const dotEnv = readDotEnv(join(dir, ".env"));
    const env: NodeJS.ProcessEnv = {
      ...dotEnv,
      ...process.env,
      ...(options.platformUrl ? { PLATFORM_URL: options.platformUrl } : {}),
      CLIENT_ID: app.clientId,
      PORT: String(port),
      ...secrets,
    };
    if (!env.CLIENT_SECRET)
      out(
        "CLIENT_SECRET is not set: put it in .env (apps create printed it once; the portal's Credentials page makes a new one). The OAuth callback and session tokens need it.",
      );
    server = appServer({ dir, command: options.server.command, label: options.server.label, port, env, out });
    server.start();
    if (!forwardTo) {
      // the webhook URL as the configuration just pushed has it
      const current = await api("GET", `/developer/apps/${id}`);
      let path = "/webhooks";
      try {
        path = new URL(current.webhookUrl).pathname;
      } catch {
        /* no webhook URL: the template's path */
      }
      forwardTo = `http://localhost:${port}${path}`;
    }
  }

  try {
    const sandbox = await api("GET", "/developer/sandbox");
    out("");
    out(`Your sandbox, ${sandbox.name}:`);
    out(`  storefront:    ${sandbox.storefrontUrl}`);
    out(`  site builder:  ${sandbox.builderUrl}   (+ Add a block: your test installation's blocks, no review)`);
    out(`  admin:         ${sandbox.adminUrl}`);
    out(
      options.configFile
        ? `Watching ${options.configFile}: every save is deployed as a release.`
        : `Watching ${options.file}: every save is pushed.`,
    );
    out("");

    if (forwardTo) await options.listen(forwardTo);
    else {
      out(
        "Webhooks and hook calls go to the app's own URLs; pass --forward-to <local URL> to relay them. Ctrl-C to stop.",
      );
      await new Promise<void>((done) => {
        process.once("SIGINT", done);
        process.once("SIGTERM", done);
      });
    }
  } finally {
    pusher.close();
    await server?.stop();
  }
}
