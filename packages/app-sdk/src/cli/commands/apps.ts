/** `storefront-apps apps list | create | use`. */
import { api, CliError, list, out, readConfig, str, writeConfig, type Flags } from "../shared.ts";

export async function apps(sub: string | undefined, flags: Flags) {
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
