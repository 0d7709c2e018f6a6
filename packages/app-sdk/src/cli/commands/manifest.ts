/** `storefront-apps manifest push [--file manifest.json] [--dry-run]`. */
import { readFileSync } from "node:fs";
import { api, appIdOf, CliError, out, readConfig, str, type Flags } from "../shared.ts";

export async function manifestPush(flags: Flags) {
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
