/**
 * `storefront-apps logs [--follow] [--since 10m|ISO]`: the app's App API requests, webhook delivery
 * attempts and hook calls (GET /developer/apps/<id>/logs/stream, contract 19). Without --follow it
 * prints what happened since `--since` (default the last 15 minutes) and stops after a quiet second.
 */
import { api, appIdOf, CliError, out, readConfig, sse, str, type Flags } from "../shared.ts";

type Line = {
  kind: "request" | "delivery" | "hook";
  at: string;
  installationId: string;
  method?: string;
  path?: string;
  event?: string;
  attempt?: number;
  hookPoint?: string;
  status: number | null;
  success?: boolean;
  durationMs: number | null;
  apiVersion?: string;
  error?: string | null;
};

/** `10m`, `2h`, `30s` or an ISO time -> an ISO time. */
export function sinceOf(value: string | undefined, nowMs = Date.now()): string {
  if (!value) return new Date(nowMs - 15 * 60_000).toISOString();
  const m = /^(\d+)([smh])$/.exec(value);
  if (m)
    return new Date(nowMs - Number(m[1]) * { s: 1000, m: 60_000, h: 3600_000 }[m[2] as "s" | "m" | "h"]).toISOString();
  if (Number.isNaN(Date.parse(value))) throw new CliError(`--since: ${value} is neither a time nor 10m, 2h, 30s`);
  return new Date(value).toISOString();
}

export function formatLine(l: Line): string {
  const time = l.at.slice(11, 23);
  const status = String(l.status ?? (l.success ? "ok" : "error")).padEnd(5);
  const ms = l.durationMs === null ? "" : `${l.durationMs}ms`;
  const what =
    l.kind === "request"
      ? `API     ${l.method} ${l.path}`
      : l.kind === "delivery"
        ? `WEBHOOK ${l.event} #${l.attempt}`
        : `HOOK    ${l.hookPoint}`;
  return `${time}  ${status} ${what}  ${ms}${l.apiVersion ? `  ${l.apiVersion}` : ""}  ${l.installationId}${l.error ? `  ${l.error}` : ""}`;
}

export async function logs(flags: Flags) {
  const config = readConfig();
  const id = appIdOf(flags, config);
  if (!config.token) throw new CliError("Not logged in: run `storefront-apps login` first");
  await api(config, "GET", `/developer/apps/${encodeURIComponent(id)}`); // 404 / 401 in words, before streaming
  const follow = flags.follow === true || flags.f === true;
  const since = sinceOf(str(flags.since));
  const ctl = new AbortController();
  const res = await fetch(
    `${config.platformUrl}/developer/apps/${encodeURIComponent(id)}/logs/stream?since=${encodeURIComponent(since)}`,
    { headers: { Authorization: `Bearer ${config.token}` }, signal: ctl.signal },
  );
  if (!res.ok || !res.body) throw new CliError(`The logs stream answered ${res.status}: ${await res.text()}`);
  let quiet: NodeJS.Timeout | null = null;
  const stopWhenQuiet = () => {
    if (follow) return;
    if (quiet) clearTimeout(quiet);
    quiet = setTimeout(() => ctl.abort(), 1500);
  };
  if (follow) out(`Following the logs of ${id} (Ctrl-C to stop)…`);
  try {
    for await (const { event, data } of sse(res.body)) {
      if (event === "ready") stopWhenQuiet();
      if (event === "log") {
        out(formatLine(JSON.parse(data) as Line));
        stopWhenQuiet();
      }
    }
  } catch (e) {
    if ((e as Error).name !== "AbortError") throw e;
  }
}
