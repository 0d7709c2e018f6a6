/**
 * storefront-apps: the app developer's command line (docs/developers/getting-started.md).
 *
 *   storefront-apps init <dir>
 *   storefront-apps login --email you@example.com [--password ...] [--platform https://platform.example]
 *   storefront-apps apps list | apps create --name N --slug S --scopes read_orders,read_products --redirect-url U [--webhook-url U] [--webhook-events a,b] [--category C]
 *   storefront-apps manifest push [--app ID] [--file manifest.json] [--dry-run]
 *   storefront-apps test-install [--app ID]
 *   storefront-apps trigger [<event>] [--app ID] | trigger hook <point> [--app ID]
 *   storefront-apps listen --forward-to http://localhost:4000/webhooks [--app ID]
 *   storefront-apps dev [--config storefront-apps.json | --file manifest.json] [--command CMD | --no-server] [--port N] [--forward-to URL] [--app ID]
 *   storefront-apps deploy [--file storefront-apps.json] [--message M] [--yes]
 *
 * This file only parses the arguments and dispatches: each command lives in commands/<name>.ts.
 */
import { existsSync, readFileSync } from "node:fs";
import { apps } from "./commands/apps.ts";
import { clock } from "./commands/clock.ts";
import { events } from "./commands/events.ts";
import { init } from "./commands/init.ts";
import { CONFIG_FILE, deploy } from "./commands/deploy.ts";
import { dev, localPort } from "./commands/dev.ts";
import { appCommand } from "./commands/app-server.ts";
import { listen } from "./commands/listen.ts";
import { login } from "./commands/login.ts";
import { logs } from "./commands/logs.ts";
import { manifestPush } from "./commands/manifest.ts";
import { testInstall } from "./commands/test-install.ts";
import { trigger } from "./commands/trigger.ts";
import { version } from "./commands/version.ts";
import { api, appIdOf, CliError, configDir, out, parseArgs, readConfig, str } from "./shared.ts";

export { configDir };

const HELP = `storefront-apps <command>

  init <dir>                                           write a working app to start from (OAuth callback, verified webhooks,
                                                       a block, an admin page, a usage charge, storefront-apps.json, its tests)
  login [--email E] [--password P] [--platform URL]   sign in as a developer (token kept in ${configDir()}, mode 600)
  apps list                                            your apps
  apps create --name N [--slug S] [--scopes a,b] [--redirect-url U] [--webhook-url U] [--webhook-events a,b] [--category C]
  apps use --app ID                                    make an app the current one
  manifest push [--file manifest.json] [--dry-run]     upload the manifest; shows the sync plan
  test-install                                         install the current app on your sandbox business
  trigger [<event>]                                    make the event happen on your sandbox, for the test installation only
                                                       (no event: lists them all)
  trigger <event> --override key=value                 set fields of the made order or review: customer.email=x, items.0.quantity=3,
                                                       currency=USD, rating=2, body=text (repeatable)
  events resend <deliveryId>                           send a past webhook delivery of the app again
  clock [advance <days> | reset]                       the sandbox's date; advance runs what falls due (periods, trials, erasures)
  trigger hook <point>                                 call your hook as a sandbox checkout would; shows its answer and what the platform made of it
  listen --forward-to URL                              relay the test installation's webhooks and hook calls to a local server
  dev [--config storefront-apps.json] [--file manifest.json] [--command CMD | --no-server] [--port N] [--forward-to URL]
                                                       test-install when needed (the app's blocks go on the sandbox's home page),
                                                       deploy storefront-apps.json as a release on every save (or push
                                                       manifest.json), run the app's server (its dev or start script;
                                                       restarted on crash or change), print the sandbox's addresses, and
                                                       relay webhooks and hook calls to the server (or --forward-to)
  version [--set YYYY-MM-DD] [--yes]                   the app's pinned API version; --set shows the changes in between, then moves it
  deploy [--file storefront-apps.json] [--message M] [--yes]
                                                       send the app's configuration document as a release; prints the diff first
  logs [--follow] [--since 10m|ISO]                    the app's App API requests, webhook attempts and hook calls (live with --follow)

Every command takes --app ID (default: the current app) and --platform URL (default: the one you logged in to).`;

export async function main(argv: string[]) {
  const { positional, flags, repeated } = parseArgs(argv);
  const [command, sub] = positional;
  switch (command) {
    case "init":
      return init(sub);
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
      return trigger(sub, flags, repeated.override ?? []);
    case "clock":
      return clock(sub, positional[2]);
    case "events":
      return events(sub, positional[2], flags);
    case "listen":
      return listen(flags);
    case "dev": {
      const config = readConfig();
      // storefront-apps.json (or --config) is deployed as releases; --file alone keeps the manifest push
      const configFile =
        str(flags.config) ?? (str(flags.file) === undefined && existsSync(CONFIG_FILE) ? CONFIG_FILE : undefined);
      let doc: Record<string, unknown> | undefined;
      try {
        doc = configFile ? (JSON.parse(readFileSync(configFile, "utf8")) as Record<string, unknown>) : undefined;
      } catch {
        /* reported by the first push; dev starts anyway */
      }
      const named = typeof doc?.appId === "string" ? doc.appId : undefined;
      const port = str(flags.port);
      if (port !== undefined && !/^\d{1,5}$/.test(port)) throw new CliError("--port: a port number, such as 4000");
      return dev({
        appId: str(flags.app) ?? named ?? appIdOf(flags, config),
        file: str(flags.file) ?? "manifest.json",
        configFile,
        forwardTo: str(flags["forward-to"]),
        dir: process.cwd(),
        server: flags["no-server"] === true ? null : appCommand(process.cwd(), str(flags.command)),
        port: port !== undefined ? Number(port) : (localPort(doc) ?? 4000),
        platformUrl: config.platformUrl,
        api: (method, path, body) => api(config, method, path, body),
        out,
        listen: (forwardTo) => listen({ ...flags, "forward-to": forwardTo }),
      });
    }
    case "version":
      return version(flags);
    case "deploy":
      return deploy(flags);
    case "logs":
      return logs(flags);
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
