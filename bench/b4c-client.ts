/**
 * B4c's load generator in a process of its own, so that the measured process (the platform) is not
 * charged for it: autocannon over a list of paths (each connection takes them in turn), every
 * response's time kept for exact percentiles. Prints one JSON line.
 *   node --import tsx bench/b4c-client.ts '{"url":"http://127.0.0.1:3000","paths":["/s/x"],"connections":16,"durationSec":8,"headers":{}}'
 */
import autocannon from "autocannon";

export type ClientRun = {
  url: string;
  paths: string[];
  connections: number;
  durationSec: number;
  headers?: Record<string, string>;
};
export type ClientResult = {
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  errors: number;
  statuses: Record<string, number>;
};

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
const round = (v: number) => Math.round(v * 100) / 100;

if (import.meta.url === `file://${process.argv[1]}`) {
  const run = JSON.parse(process.argv[2]) as ClientRun;
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  const instance = autocannon(
    {
      url: run.url,
      connections: run.connections,
      duration: run.durationSec,
      pipelining: 1,
      headers: run.headers ?? {},
      requests: run.paths.map((path) => ({ method: "GET" as const, path })),
    },
    (error, result) => {
      if (error) throw error;
      times.sort((a, b) => a - b);
      const out: ClientResult = {
        requests: result.requests.total,
        rps: Math.round(result.requests.total / result.duration),
        p50: round(percentile(times, 50)),
        p90: round(percentile(times, 90)),
        p99: round(percentile(times, 99)),
        errors: result.errors + result.timeouts,
        statuses,
      };
      process.stdout.write(JSON.stringify(out) + "\n");
    },
  );
  instance.on("response", (_client: unknown, status: number, _bytes: number, ms: number) => {
    times.push(ms);
    statuses[status] = (statuses[status] ?? 0) + 1;
  });
}
