/**
 * `storefront-apps dev`: the developer's loop in one command, as Shopify CLI's `app dev` (docs/developers/sdk.md).
 *
 * 1. Test-installs the app on the developer's sandbox business when it is not installed there yet
 *    (the access token and webhook secret are printed once, as `test-install` does).
 * 2. Pushes the manifest file now and whenever it changes: each version is first planned
 *    (`PUT /developer/apps/<id>/manifest?dryRun=true`); a plan that changes nothing is not pushed,
 *    any other is pushed and the sync it made is printed. A file that is not JSON, or that the
 *    platform refuses (400 naming the field), is reported and the last good manifest stays.
 * 3. Prints the sandbox's storefront, site builder and admin (`GET /developer/sandbox`), where the
 *    test installation's blocks and embeds are placed without review.
 * 4. Runs `listen` with `--forward-to` (webhooks and hook calls relayed to a local server), or else
 *    waits for Ctrl-C.
 */
import { existsSync, readFileSync, watch, type FSWatcher } from "node:fs";
import { basename, dirname, resolve } from "node:path";

type Api = (method: string, path: string, body?: unknown) => Promise<any>;

export type DevOptions = {
  appId: string;
  /** The manifest file (default manifest.json in the working directory). */
  file: string;
  /** Where `listen` relays calls; without it, dev only watches the manifest. */
  forwardTo?: string;
  api: Api;
  out: (line?: string) => void;
  /** `storefront-apps listen` with the same app and --forward-to; resolves when it stops (Ctrl-C). */
  listen: () => Promise<void>;
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

/** Pushes each new version of the manifest file; `close()` stops watching. */
export function manifestPusher({ appId, file, api, out }: Pick<DevOptions, "appId" | "file" | "api" | "out">) {
  const path = `/developer/apps/${encodeURIComponent(appId)}/manifest`;
  let last: string | null = null;
  let running: Promise<void> = Promise.resolve();

  const pushOnce = async () => {
    if (!existsSync(file)) {
      if (last !== "") out(`No ${file}: the app keeps the manifest it has. Create the file and it is pushed.`);
      last = "";
      return;
    }
    const text = readFileSync(file, "utf8");
    if (text === last) return;
    last = text;
    let manifest: unknown;
    try {
      manifest = JSON.parse(text);
    } catch (e) {
      out(`${time()}  ${file} is not JSON (${(e as Error).message}); waiting for the next save.`);
      return;
    }
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
  };
  // one push at a time, in the order of the changes
  const push = () => (running = running.then(pushOnce, pushOnce));

  // the directory, not the file: editors save by replacing the file, which ends a watch on it
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | null = null;
  const start = () => {
    watcher = watch(dirname(resolve(file)), (_event, name) => {
      if (name !== null && name.toString() !== basename(file)) return;
      clearTimeout(timer);
      timer = setTimeout(() => void push(), 100);
    });
  };
  return {
    /** The first push; then every change of the file is pushed. */
    start: async () => {
      await push();
      start();
    },
    /** Resolves once the pushes started so far are done. */
    settled: () => running,
    close: () => {
      clearTimeout(timer);
      watcher?.close();
    },
  };
}

const time = () => new Date().toISOString().slice(11, 19);

export async function dev(options: DevOptions) {
  const { appId, api, out } = options;
  const id = encodeURIComponent(appId);
  const app = await api("GET", `/developer/apps/${id}`);
  out(`${app.name} (${app.status}), app ${app.id}`);

  const status = await api("GET", `/developer/apps/${id}/test-status`);
  if (status.installed) {
    out(`Test installation ${status.installation.installationId} on your sandbox: already installed.`);
  } else {
    const r = await api("POST", `/developer/apps/${id}/test-install`);
    out(`Test-installed on your sandbox business ${r.businessId} (installation ${r.installationId}).`);
    out(`  access token:   ${r.accessToken}`);
    out(`  webhook secret: ${r.webhookSecret}   (both shown once: keep them in your app's secrets)`);
  }

  const pusher = manifestPusher(options);
  await pusher.start();

  const sandbox = await api("GET", "/developer/sandbox");
  out("");
  out(`Your sandbox, ${sandbox.name}:`);
  out(`  storefront:    ${sandbox.storefrontUrl}`);
  out(`  site builder:  ${sandbox.builderUrl}   (+ Add a block: your test installation's blocks, no review)`);
  out(`  admin:         ${sandbox.adminUrl}`);
  out(`Watching ${options.file}: every save is pushed.`);
  out("");

  try {
    if (options.forwardTo) await options.listen();
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
  }
}
