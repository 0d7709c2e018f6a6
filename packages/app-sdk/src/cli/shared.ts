/** What every command of storefront-apps shares: the saved login, argument parsing, the platform's API, output. */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline/promises";

export type Config = { platformUrl?: string; token?: string; email?: string; appId?: string };
export type Flags = Record<string, string | true>;

export function configDir(env = process.env): string {
  return env.STOREFRONT_APPS_CONFIG_DIR ?? join(env.XDG_CONFIG_HOME ?? join(homedir(), ".config"), "storefront-apps");
}
export const configFile = () => join(configDir(), "config.json");

export function readConfig(): Config {
  try {
    return JSON.parse(readFileSync(configFile(), "utf8")) as Config;
  } catch {
    return {};
  }
}

export function writeConfig(config: Config) {
  mkdirSync(configDir(), { recursive: true, mode: 0o700 });
  writeFileSync(configFile(), JSON.stringify(config, null, 2) + "\n", { mode: 0o600 });
  chmodSync(configFile(), 0o600); // also when the file existed with a wider mode
}

export class CliError extends Error {}

/** Positional words and --flags; a flag given more than once (`--override a=1 --override b=2`) keeps every value in `repeated`. */
export function parseArgs(argv: string[]) {
  const positional: string[] = [];
  const flags: Flags = {};
  const repeated: Record<string, string[]> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith("--")) {
      const [name, inline] = a.slice(2).split(/=(.*)/s, 2);
      let value: string | true;
      if (inline !== undefined) value = inline;
      else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith("--")) value = argv[++i];
      else value = true;
      flags[name] = value;
      if (typeof value === "string") (repeated[name] ??= []).push(value);
    } else positional.push(a);
  }
  return { positional, flags, repeated };
}

export const str = (v: string | true | undefined) => (typeof v === "string" ? v : undefined);
export const list = (v: string | true | undefined) =>
  str(v)
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);

export function platformUrl(flags: Flags, config: Config) {
  return (
    str(flags.platform) ??
    process.env.STOREFRONT_APPS_URL ??
    config.platformUrl ??
    "http://localhost:3000"
  ).replace(/\/+$/, "");
}

export async function api(config: Config, method: string, path: string, body?: unknown) {
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

export function appIdOf(flags: Flags, config: Config) {
  const id = str(flags.app) ?? config.appId;
  if (!id) throw new CliError("Which app? Pass --app <id> (or create one with `storefront-apps apps create`)");
  return id;
}

export async function prompt(question: string) {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

export const out = (line = "") => process.stdout.write(line + "\n");

/** Parses a Server-Sent Events stream into (event, data) pairs. */
export async function* sse(body: ReadableStream<Uint8Array>) {
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
