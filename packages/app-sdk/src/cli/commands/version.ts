import { api, appIdOf, CliError, out, prompt, readConfig, str, type Config, type Flags } from "../shared.ts";

/**
 * `version`: the app's pinned API version and its status; `version --set X`: first the changes that
 * lie between the pin and X (from the platform's registry), then the pin moved (`--yes` skips the
 * question).
 */
export async function version(flags: Flags) {
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
