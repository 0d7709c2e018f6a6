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
 *   storefront-apps dev [--forward-to http://localhost:4000] [--file manifest.json] [--app ID]
 *   storefront-apps deploy [--file storefront-apps.json] [--message M] [--yes]
 *
 * This file only parses the arguments and dispatches: each command lives in commands/<name>.ts.
 */
import { apps } from "./commands/apps.ts";
import { clock } from "./commands/clock.ts";
import { events } from "./commands/events.ts";
import { init } from "./commands/init.ts";
import { deploy } from "./commands/deploy.ts";
import { dev } from "./commands/dev.ts";
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
  dev [--forward-to URL] [--file manifest.json]        test-install when needed, push the manifest on every save,
                                                       print the sandbox's storefront and site builder, and listen
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
