/**
 * One process of the topology at a time: each service started in a process group of its own (its
 * pid and log in the topology's directory), signalled, crashed or waited for; the web processes and
 * workers with the settings each path to PostgreSQL needs.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { isRoot, type Topology } from "./settings";

export type Service =
  | "etcd"
  | "pg1"
  | "pg2"
  | "haproxy"
  | "pgbouncer"
  | "web1"
  | "web2"
  | "worker1"
  | "worker2"
  | "web-direct"
  | "web-direct-unprepared";

export const pidFile = (t: Topology, name: string) => path.join(t.dir, `${name}.pid`);

/** Starts a long-running process in its own process group, its output in <dir>/<name>.log. */
export function startProcess(
  t: Topology,
  name: string,
  command: string,
  args: string[],
  options: { asPostgres?: boolean; env?: Record<string, string>; cwd?: string } = {},
): number {
  const out = fs.openSync(path.join(t.dir, `${name}.log`), "a");
  const [cmd, argv] =
    options.asPostgres && isRoot ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
  const child = spawn(cmd, argv, {
    detached: true,
    stdio: ["ignore", out, out],
    env: { ...process.env, ...options.env },
    cwd: options.cwd ?? process.cwd(),
  });
  child.unref();
  fs.closeSync(out);
  fs.writeFileSync(pidFile(t, name), String(child.pid));
  return child.pid!;
}

export function pidOf(t: Topology, name: string): number | null {
  try {
    const pid = Number(fs.readFileSync(pidFile(t, name), "utf8"));
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

/** Sends `signal` to a service's whole process group (runuser, Patroni and its PostgreSQL, …). */
export function signalService(t: Topology, name: string, signal: NodeJS.Signals): boolean {
  const pid = pidOf(t, name);
  if (!pid) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** A process's children (Patroni under runuser). */
export function childPids(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The postmaster of a node, from its data directory (Patroni starts it in a session of its own). */
export function postmasterPid(t: Topology, name: string): number | null {
  try {
    const pid = Number(fs.readFileSync(path.join(t.dir, name, "postmaster.pid"), "utf8").split("\n")[0]);
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

/** A node's host dying: Patroni and PostgreSQL (with every backend) killed at once with SIGKILL. */
export function crashNode(t: Topology, name: string) {
  const postmaster = postmasterPid(t, name);
  signalService(t, name, "SIGKILL");
  if (postmaster) {
    try {
      process.kill(-postmaster, "SIGKILL");
    } catch {
      process.kill(postmaster, "SIGKILL");
    }
  }
}

export async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export const httpStatus = async (url: string) => {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
};

export const nodeEnv = (t: Topology, i: number) => ({
  name: `pg${i + 1}` as Service,
  config: path.join(t.dir, `pg${i + 1}.yml`),
});

export function startPatroni(t: Topology, i: number) {
  const { name, config } = nodeEnv(t, i);
  startProcess(t, name, "/usr/bin/patroni", [config], { asPostgres: true });
}

/** `npm run web` as the service `name` on `port`, with the topology's settings and `env`. */
function startWebProcess(t: Topology, name: Service, port: number, env: Record<string, string>) {
  startProcess(
    t,
    name,
    process.execPath,
    ["--experimental-async-context-frame", "--import", "tsx", "server.ts", "web"],
    {
      env: { ...t.env, PORT: String(port), ...env },
    },
  );
}

export function startWeb(t: Topology, i: number, extra: Record<string, string> = {}) {
  startWebProcess(t, `web${i + 1}` as Service, t.ports.web[i], {
    // through the pooler in transaction mode: no named prepared statements (PgBouncer 1.18)
    DATABASE_URL: t.poolerUrl,
    DATABASE_PREPARE: "false",
    // migrations at start take a session's advisory lock: straight to the primary, not through the pooler
    DATABASE_DIRECT_URL: t.primaryUrl,
    // the storefront's shared pages and the App API's catalog lists read either node (haproxy's read port)
    READ_DATABASE_URL: t.replicaUrl,
    ...extra,
  });
}

/**
 * A web process that skips the pooler and the balancer: both nodes in its DATABASE_URL (postgres.js
 * finds the primary), every read on the primary (no READ_DATABASE_URL). The direct path the
 * benchmark compares the topology with: on ports.webDirect with prepared statements, or, with
 * `prepare: false`, on ports.webDirectUnprepared with DATABASE_PREPARE=false as behind the pooler.
 */
export function startDirectWeb(t: Topology, options: { prepare: boolean }, extra: Record<string, string> = {}) {
  const env = { DATABASE_URL: t.multiHostUrl, ...extra };
  if (options.prepare) startWebProcess(t, "web-direct", t.ports.webDirect, env);
  else startWebProcess(t, "web-direct-unprepared", t.ports.webDirectUnprepared, { ...env, DATABASE_PREPARE: "false" });
}

/**
 * The two ways a worker follows the primary, both under the failover test: worker1 through
 * haproxy's primary port, worker2 with both nodes in its DATABASE_URL (postgres.js picks the primary
 * itself; graphile-worker's `pg` connections each go to the current primary, db/primary.ts). Each
 * names itself to PostgreSQL (application_name) so that the failover test can see where it is.
 */
export function startWorkerProcess(t: Topology, i: number, extra: Record<string, string> = {}) {
  const url = i === 0 ? `${t.primaryUrl}?application_name=worker1` : `${t.multiHostUrl}&application_name=worker2`;
  startProcess(
    t,
    `worker${i + 1}`,
    process.execPath,
    ["--experimental-async-context-frame", "--import", "tsx", "server.ts", "worker"],
    {
      env: { ...t.env, DATABASE_URL: url, OUTBOUND_ALLOW_PRIVATE: "true", ...extra },
    },
  );
}

/** Whether build/ is missing or older than its sources (server.ts's check, made once here for both web processes). */
export function buildIsStale(): boolean {
  if (!fs.existsSync("build/index.js")) return true;
  const builtAt = fs.statSync("build/index.js").mtimeMs;
  const newer = (dir: string): boolean =>
    fs.existsSync(dir) &&
    fs.readdirSync(dir, { withFileTypes: true }).some((e) => {
      const full = path.join(dir, e.name);
      return e.isDirectory() ? newer(full) : fs.statSync(full).mtimeMs > builtAt;
    });
  return ["app", "storefront", "db/schema"].some(newer);
}
