/**
 * `storefront-apps deploy [--file storefront-apps.json] [--message M] [--yes]`: the app's whole
 * configuration document sent as a release (contract 19). The diff against the current release is
 * printed first (`POST /developer/apps/<id>/releases?dryRun=true`), then, after `--yes` or a yes
 * at the prompt, the release is made and its number and status printed.
 */
import { readFileSync } from "node:fs";
import { api, CliError, out, prompt, readConfig, str, type Config, type Flags } from "../shared.ts";

export const CONFIG_FILE = "storefront-apps.json";

/** Keys of storefront-apps.json that are the CLI's, not the configuration's. */
const CLI_KEYS = ["$schema", "appId"];

export type DiffEntry = { path: string; op: "added" | "removed" | "changed"; before?: unknown; after?: unknown };

/** The configuration document of a storefront-apps.json, and the app it names (`appId`), if any. */
export function readConfigDocument(file: string): { appId?: string; config: Record<string, unknown> } {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new CliError(`Cannot read ${file}: ${(e as Error).message}`);
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc))
    throw new CliError(`${file}: must be a JSON object`);
  const config = { ...(doc as Record<string, unknown>) };
  const appId = typeof config.appId === "string" ? config.appId : undefined;
  for (const k of CLI_KEYS) delete config[k];
  return { appId, config };
}

const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s.length > 120 ? s.slice(0, 117) + "..." : s;
};

/** A release's diff as lines: `+ path: value`, `- path: value`, `~ path: before -> after`. */
export function diffLines(diff: DiffEntry[]): string[] {
  return diff.map((d) =>
    d.op === "added"
      ? `  + ${d.path}: ${show(d.after)}`
      : d.op === "removed"
        ? `  - ${d.path}: ${show(d.before)}`
        : `  ~ ${d.path}: ${show(d.before)} -> ${show(d.after)}`,
  );
}

/** Sends the document as a release of the app; `confirm` decides after the diff is shown (false: nothing happens). */
export async function deployConfig(
  config: Config,
  appId: string,
  document: Record<string, unknown>,
  options: { message?: string; confirm: () => Promise<boolean>; print?: (line?: string) => void },
) {
  const print = options.print ?? out;
  const path = `/developer/apps/${encodeURIComponent(appId)}/releases`;
  const body = { config: document, ...(options.message ? { message: options.message } : {}) };
  const plan = await api(config, "POST", `${path}?dryRun=true`, body);
  if (plan.diff.length === 0) {
    print("No change from the current release: nothing to deploy.");
    return null;
  }
  print(`Release ${plan.version} would change:`);
  for (const line of diffLines(plan.diff)) print(line);
  if (plan.status === "IN_REVIEW")
    print("Its scopes or pricing differ from the approved ones: it goes into review as the app's update.");
  if (!(await options.confirm())) {
    print("Nothing deployed.");
    return null;
  }
  const made = await api(config, "POST", path, body);
  print(
    made.status === "IN_REVIEW"
      ? `Release ${made.version} created: in review (the rest is live now; the scopes and pricing once approved).`
      : `Release ${made.version} created and live.`,
  );
  return made as { version: number; diff: DiffEntry[]; status: string };
}

export async function deploy(flags: Flags) {
  const config = readConfig();
  const file = str(flags.file) ?? CONFIG_FILE;
  const { appId: named, config: document } = readConfigDocument(file);
  const appId = str(flags.app) ?? named ?? config.appId;
  if (!appId) throw new CliError(`Which app? Put "appId" in ${file} or pass --app <id>`);
  await deployConfig(config, appId, document, {
    message: str(flags.message),
    confirm: async () => {
      if (flags.yes === true) return true;
      if (!process.stdin.isTTY) throw new CliError("Not a terminal: pass --yes to deploy without the question");
      return /^y(es)?$/i.test(await prompt("Deploy it? [y/N] "));
    },
  });
}
