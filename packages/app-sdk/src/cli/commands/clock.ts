/** `storefront-apps clock` (the sandbox's date) and `clock advance <days>` / `clock reset` (contract 19). */
import { api, CliError, out, readConfig } from "../shared.ts";

type Clock = { now: string; offsetSeconds: number; happened?: { at: string; kind: string; id: string }[] };

const describe = (c: Clock) =>
  `Sandbox date: ${c.now}${c.offsetSeconds ? ` (${(c.offsetSeconds / 86_400).toFixed(c.offsetSeconds % 86_400 ? 2 : 0)} days ahead of real time)` : " (real time)"}`;

export async function clock(sub: string | undefined, days: string | undefined) {
  const config = readConfig();
  if (sub === undefined || sub === "show") return out(describe(await api(config, "GET", "/developer/sandbox/clock")));
  if (sub === "reset") return out(describe(await api(config, "POST", "/developer/sandbox/clock/reset")));
  if (sub !== "advance") throw new CliError("clock [advance <days> | reset]");
  const n = Number(days);
  if (!days || !Number.isInteger(n) || n < 1 || n > 400)
    throw new CliError("clock advance <days>: a whole number from 1 to 400");
  const c = (await api(config, "POST", "/developer/sandbox/clock", { advanceDays: n })) as Clock;
  for (const h of c.happened ?? []) out(`  ${h.at}  ${h.kind.padEnd(20)} ${h.id}`);
  if (!c.happened?.length) out("  (nothing fell due)");
  out(describe(c));
}
