/**
 * The production topology on one machine (issue 34, decision 038; README "A replicated topology"):
 *
 *   etcd ─ Patroni ×2 ─ PostgreSQL 15 primary + synchronous streaming standby
 *   haproxy :pg-primary (Patroni's /primary check) ─ pgbouncer (transaction mode)
 *   haproxy :http (/healthz check) ─ web ×2 ;  worker ×2
 *
 *   node --import tsx deploy/topology/topology.ts up|down|status     (npm run topology [-- down])
 *
 * Everything is a Debian package (postgresql-15, patroni, etcd-server, pgbouncer, haproxy; installed
 * with apt-get when missing) or this repository, and listens on 127.0.0.1 from TOPOLOGY_PORT (7400).
 * Each process's pid and log live under TOPOLOGY_DIR (a directory the postgres user can use). The
 * failover test (deploy/topology/failover.ts) drives the same pieces through startTopology().
 */
import { execFile, execFileSync, spawn } from "node:child_process";
import { promisify } from "node:util";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";

const PG_BIN = "/usr/lib/postgresql/15/bin";
const PACKAGES: [string, string][] = [
  [`${PG_BIN}/postgres`, "postgresql-15"],
  ["/usr/bin/patroni", "patroni"],
  ["/usr/bin/etcd", "etcd-server"],
  ["/usr/sbin/pgbouncer", "pgbouncer"],
  ["/usr/sbin/haproxy", "haproxy"],
];

export type Ports = ReturnType<typeof portsFrom>;
export function portsFrom(base: number) {
  return {
    balancer: base, // haproxy: the platform's HTTP address
    etcd: base + 1,
    etcdPeer: base + 2,
    pg: [base + 11, base + 12],
    patroni: [base + 21, base + 22],
    pgPrimary: base + 31, // haproxy: whichever node Patroni calls the primary
    pgReplica: base + 32, // haproxy: any running node (reads that may be stale)
    pgbouncer: base + 33,
    web: [base + 41, base + 42],
    // web processes straight on the nodes, no pooler or balancer (bench/topology.ts's direct paths):
    // with prepared statements, and without (to tell the pooler's hops from DATABASE_PREPARE=false)
    webDirect: base + 43,
    webDirectUnprepared: base + 44,
  };
}

export type Topology = {
  dir: string;
  ports: Ports;
  password: string;
  /** the pooler, as the web processes use it */
  poolerUrl: string;
  /** both PostgreSQL nodes; postgres.js connects to the primary (target_session_attrs=primary) */
  multiHostUrl: string;
  /** haproxy's primary port, as the workers use it (graphile-worker's pg driver takes one host) */
  primaryUrl: string;
  replicaUrl: string;
  balancerUrl: string;
  storefrontUrl: string;
  env: Record<string, string>;
};

const isRoot = process.getuid?.() === 0;

function log(line: string) {
  console.log(`[topology] ${line}`);
}

/**
 * Installs the Debian packages that are missing (all of the topology's, or those named in `only`),
 * as .ci/run does for Chromium and nginx.
 */
export function ensurePackages(only?: string[]) {
  const missing = PACKAGES.filter(([bin, pkg]) => (!only || only.includes(pkg)) && !fs.existsSync(bin)).map(
    ([, pkg]) => pkg,
  );
  if (!missing.length) return;
  log(`installing Debian packages: ${missing.join(" ")}`);
  const sudo = isRoot ? [] : ["sudo"];
  const run = (args: string[]) =>
    execFileSync(sudo[0] ?? args[0], sudo.length ? args : args.slice(1), {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  run(["apt-get", "update", "-qq"]);
  run(["apt-get", "install", "-y", "-qq", ...missing]);
}

export function topologyDir(base: number): string {
  return process.env.TOPOLOGY_DIR ?? path.join(os.tmpdir(), `storefront-apps-topology-${base}`);
}

/** The settings of a topology on `base` (its password is kept in its directory). */
export function describeTopology(base = Number(process.env.TOPOLOGY_PORT ?? 7400)): Topology {
  const dir = topologyDir(base);
  const ports = portsFrom(base);
  const secretsFile = path.join(dir, "secrets.json");
  let secrets: { password: string; sessionSecret: string; encryptionKey: string };
  if (fs.existsSync(secretsFile)) secrets = JSON.parse(fs.readFileSync(secretsFile, "utf8"));
  else {
    secrets = {
      password: randomBytes(12).toString("hex"),
      sessionSecret: randomBytes(32).toString("base64url"),
      encryptionKey: randomBytes(32).toString("base64"),
    };
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(secretsFile, JSON.stringify(secrets), { mode: 0o600 });
  }
  const auth = `platform:${secrets.password}`;
  const poolerUrl = `postgres://${auth}@127.0.0.1:${ports.pgbouncer}/platform`;
  const multiHostUrl = `postgres://${auth}@${ports.pg.map((p) => `127.0.0.1:${p}`).join(",")}/platform?target_session_attrs=primary`;
  const primaryUrl = `postgres://${auth}@127.0.0.1:${ports.pgPrimary}/platform`;
  const replicaUrl = `postgres://${auth}@127.0.0.1:${ports.pgReplica}/platform`;
  return {
    dir,
    ports,
    password: secrets.password,
    poolerUrl,
    multiHostUrl,
    primaryUrl,
    replicaUrl,
    balancerUrl: `http://localhost:${ports.balancer}`,
    storefrontUrl: `http://127.0.0.1:${ports.balancer}`,
    env: {
      PUBLIC_URL: `http://localhost:${ports.balancer}`,
      STOREFRONT_URL: `http://127.0.0.1:${ports.balancer}`,
      SESSION_SECRET: secrets.sessionSecret,
      ENCRYPTION_KEY: secrets.encryptionKey,
      TRUSTED_PROXIES: "127.0.0.1",
      DATA_DIR: path.join(dir, "app-data"),
    },
  };
}

// ---------------------------------------------------------------------------------------- configs

function patroniConfig(t: Topology, i: number): string {
  const name = `pg${i + 1}`;
  const data = path.join(t.dir, name);
  return `scope: storefront-apps
name: ${name}
restapi:
  listen: 127.0.0.1:${t.ports.patroni[i]}
  connect_address: 127.0.0.1:${t.ports.patroni[i]}
etcd3:
  hosts: 127.0.0.1:${t.ports.etcd}
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 1
    retry_timeout: 4
    maximum_lag_on_failover: 0
    synchronous_mode: true
    # with the standby away the primary goes on alone, and Patroni promotes no node that may lack
    # what it acknowledged meanwhile (decision 052; the failover test's "standby away" phase)
    synchronous_mode_strict: false
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        max_connections: 200
        wal_level: replica
        hot_standby: "on"
        wal_log_hints: "on"
        max_wal_senders: 10
        max_replication_slots: 10
        wal_keep_size: 256MB
        synchronous_commit: "on"
        fsync: "on"
  initdb:
    - encoding: UTF8
    - locale: C.UTF-8
    - auth-host: scram-sha-256
    - auth-local: trust
  pg_hba:
    - local all all trust
    - host replication replicator 127.0.0.1/32 scram-sha-256
    - host all all 127.0.0.1/32 scram-sha-256
postgresql:
  listen: 127.0.0.1:${t.ports.pg[i]}
  connect_address: 127.0.0.1:${t.ports.pg[i]}
  data_dir: ${data}
  bin_dir: ${PG_BIN}
  pgpass: ${path.join(t.dir, `${name}.pgpass`)}
  authentication:
    replication:
      username: replicator
      password: ${t.password}
    superuser:
      username: postgres
      password: ${t.password}
    rewind:
      username: postgres
      password: ${t.password}
  parameters:
    unix_socket_directories: ${t.dir}
tags:
  nofailover: false
  noloadbalance: false
  clonefrom: false
  nosync: false
`;
}

function haproxyConfig(t: Topology): string {
  const pgServers = (check: string) =>
    t.ports.pg
      .map((p, i) => `  server pg${i + 1} 127.0.0.1:${p} check port ${t.ports.patroni[i]}`)
      .join("\n")
      .replace(/^/, `  option httpchk GET ${check}\n  http-check expect status 200\n`);
  return `global
  maxconn 4000
  log stderr format short local0 notice
  # the servers' states as haproxy sees them (haproxyServers): the topology waits for them to agree with Patroni
  stats socket ${path.join(t.dir, "haproxy.sock")} mode 600 level user
defaults
  log global
  timeout connect 2s
  timeout client 1h
  timeout server 1h
  timeout check 2s
  retries 3
# the platform: two web processes, each taken out while its /healthz fails (its database is away)
frontend http
  mode http
  bind 127.0.0.1:${t.ports.balancer}
  option forwardfor
  default_backend web
backend web
  mode http
  balance roundrobin
  option httpchk GET /healthz
  http-check expect status 200
  # a web process killed mid-connection: a new connection goes to the other one
  option redispatch
  retry-on conn-failure empty-response response-timeout
  timeout server 30s
  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
${t.ports.web.map((p, i) => `  server web${i + 1} 127.0.0.1:${p} check`).join("\n")}
# PostgreSQL: the node Patroni calls the primary; the other (streaming standby) for stale-tolerant reads
listen pg_primary
  mode tcp
  bind 127.0.0.1:${t.ports.pgPrimary}
  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
${pgServers("/primary")}
listen pg_replica
  mode tcp
  bind 127.0.0.1:${t.ports.pgReplica}
  balance roundrobin
  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
${pgServers("/read-only")}
`;
}

function pgbouncerConfig(t: Topology): string {
  return `[databases]
platform = host=127.0.0.1 port=${t.ports.pgPrimary} dbname=platform
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${t.ports.pgbouncer}
unix_socket_dir =
auth_type = scram-sha-256
auth_file = ${path.join(t.dir, "pgbouncer.users")}
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 40
server_reset_query =
server_check_delay = 0
server_connect_timeout = 3
server_login_retry = 1
ignore_startup_parameters = extra_float_digits,options
`;
}

// -------------------------------------------------------------------------------------- processes

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

const pidFile = (t: Topology, name: string) => path.join(t.dir, `${name}.pid`);

/** Starts a long-running process in its own process group, its output in <dir>/<name>.log. */
function startProcess(
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
function childPids(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The postmaster of a node, from its data directory (Patroni starts it in a session of its own). */
function postmasterPid(t: Topology, name: string): number | null {
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

const httpStatus = async (url: string) => {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
};

/** The node names Patroni reports as leader and (synchronous) standby. */
export async function clusterState(t: Topology): Promise<{ leader: string | null; members: Record<string, string> }> {
  for (const port of t.ports.patroni) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/cluster`, { signal: AbortSignal.timeout(2000) });
      const body = (await res.json()) as { members: { name: string; role: string; state: string }[] };
      const members = Object.fromEntries(body.members.map((m) => [m.name, `${m.role}/${m.state}`]));
      const leader = body.members.find((m) => m.role === "leader" && m.state === "running")?.name ?? null;
      return { leader, members };
    } catch {
      // try the other node
    }
  }
  return { leader: null, members: {} };
}

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
  startProcess(t, name, process.execPath, ["--import", "tsx", "server.ts", "web"], {
    env: { ...t.env, PORT: String(port), ...env },
  });
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
  startProcess(t, `worker${i + 1}`, process.execPath, ["--import", "tsx", "server.ts", "worker"], {
    env: { ...t.env, DATABASE_URL: url, OUTBOUND_ALLOW_PRIVATE: "true", ...extra },
  });
}

/** Whether build/ is missing or older than its sources (server.ts's check, made once here for both web processes). */
function buildIsStale(): boolean {
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

const psql = (t: Topology, port: number, sqlText: string, db = "postgres") =>
  execFileSync(
    `${PG_BIN}/psql`,
    ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", db, "-qAtc", sqlText],
    {
      env: { ...process.env, PGPASSWORD: t.password, PGCONNECT_TIMEOUT: "5" },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 15_000,
    },
  ).trim();

/** psql without blocking the event loop (the failover test's clients run meanwhile). */
const psqlAsync = async (t: Topology, port: number, sqlText: string) =>
  (
    await promisify(execFile)(
      `${PG_BIN}/psql`,
      ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", "postgres", "-qAtc", sqlText],
      { env: { ...process.env, PGPASSWORD: t.password, PGCONNECT_TIMEOUT: "5" }, encoding: "utf8", timeout: 15_000 },
    )
  ).stdout.trim();

/** haproxy's view of the servers of `proxy` (its stats socket): name → status ("UP", "DOWN", "UP 1/2", …). */
export async function haproxyServers(t: Topology, proxy: string): Promise<Record<string, string>> {
  const text = await new Promise<string>((resolve, reject) => {
    let out = "";
    const socket = net.connect(path.join(t.dir, "haproxy.sock"), () => socket.write("show stat\n"));
    socket.setTimeout(2000, () => socket.destroy(new Error("haproxy's stats socket did not answer")));
    socket.on("data", (c) => (out += c));
    socket.on("end", () => resolve(out));
    socket.on("error", reject);
  });
  const [header, ...rows] = text.trim().split("\n");
  const columns = header.replace(/^# /, "").split(",");
  const [px, sv, status] = ["pxname", "svname", "status"].map((c) => columns.indexOf(c));
  return Object.fromEntries(
    rows
      .map((r) => r.split(","))
      .filter((r) => r[px] === proxy && r[sv] !== "FRONTEND" && r[sv] !== "BACKEND")
      .map((r) => [r[sv], r[status]]),
  );
}

/**
 * What a steady cluster looks like now, or null: Patroni's leader running, its synchronous standby
 * streaming as PostgreSQL on the leader itself reports it (pg_stat_replication: one standby,
 * sync, streaming; the leader out of recovery), and, once haproxy runs, haproxy's primary port
 * sending to the leader alone.
 */
async function steadyState(t: Topology, withHaproxy: boolean): Promise<string | null> {
  try {
    const { leader, members } = await clusterState(t);
    const standby = Object.entries(members).find(
      ([, m]) => m === "sync_standby/streaming" || m === "sync_standby/running",
    );
    if (!leader || !standby) return null;
    const onLeader = await psqlAsync(
      t,
      t.ports.pg[leader === "pg1" ? 0 : 1],
      "select pg_is_in_recovery()::text || ' ' || (select count(*) from pg_stat_replication where sync_state = 'sync' and state = 'streaming')",
    );
    if (onLeader !== "false 1") return null;
    if (withHaproxy) {
      const servers = await haproxyServers(t, "pg_primary");
      if (servers[leader] !== "UP") return null;
      if (Object.entries(servers).some(([name, status]) => name !== leader && !status.startsWith("DOWN"))) return null;
    }
    return `${leader} leads, ${standby[0]} streams synchronously`;
  } catch {
    return null;
  }
}

/**
 * Waits until the cluster is steady (steadyState) and has stayed so, unchanged, for a second:
 * seen twice, with no other answer between. A new cluster goes through a few states on its way
 * (haproxy starts with every server up until its first checks; Patroni's first loops), and a
 * statement sent on the first good answer could find no server (issue 39: `psql` exit 2 in 1 of
 * 4 clean runs). Returns the leader's name.
 */
export async function waitForSteadyCluster(t: Topology, options: { haproxy: boolean; timeoutMs?: number }) {
  let seen: string | null = null;
  let since = 0;
  await waitFor(
    `a steady cluster (leader running, synchronous standby streaming${options.haproxy ? ", haproxy agreeing" : ""})`,
    async () => {
      const state = await steadyState(t, options.haproxy);
      if (state === null || state !== seen) {
        seen = state;
        since = Date.now();
        return false;
      }
      return Date.now() - since >= 1000;
    },
    options.timeoutMs ?? 180_000,
  );
  return seen!.split(" ")[0];
}

/** A statement through `port`, sent again (up to a minute) while it fails: `statement` must be safe to repeat. */
async function psqlRetrying(t: Topology, port: number, statement: string): Promise<string> {
  let out = "";
  await waitFor(`psql: ${statement.replace(t.password, "***")}`, () => {
    out = psql(t, port, statement);
    return true;
  });
  return out;
}

/** Brings everything up (or what is not yet running) and waits until the balancer serves the platform. */
export async function startTopology(
  options: { base?: number; appEnv?: Record<string, string> } = {},
): Promise<Topology> {
  ensurePackages();
  const t = describeTopology(options.base);
  fs.mkdirSync(t.dir, { recursive: true });
  fs.mkdirSync(t.env.DATA_DIR, { recursive: true });
  if (isRoot) execFileSync("chown", ["postgres:postgres", t.dir]);

  for (let i = 0; i < 2; i++) fs.writeFileSync(nodeEnv(t, i).config, patroniConfig(t, i));
  fs.writeFileSync(path.join(t.dir, "haproxy.cfg"), haproxyConfig(t));
  fs.writeFileSync(path.join(t.dir, "pgbouncer.ini"), pgbouncerConfig(t));
  fs.writeFileSync(path.join(t.dir, "pgbouncer.users"), `"platform" "${t.password}"\n`, { mode: 0o600 });
  if (isRoot)
    for (const f of ["pg1.yml", "pg2.yml", "pgbouncer.ini", "pgbouncer.users"])
      execFileSync("chown", ["postgres:postgres", path.join(t.dir, f)]);

  if (!pidOf(t, "etcd")) {
    log(`etcd on 127.0.0.1:${t.ports.etcd}`);
    startProcess(t, "etcd", "/usr/bin/etcd", [
      "--name=topology",
      `--data-dir=${path.join(t.dir, "etcd")}`,
      `--listen-client-urls=http://127.0.0.1:${t.ports.etcd}`,
      `--advertise-client-urls=http://127.0.0.1:${t.ports.etcd}`,
      `--listen-peer-urls=http://127.0.0.1:${t.ports.etcdPeer}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${t.ports.etcdPeer}`,
      `--initial-cluster=topology=http://127.0.0.1:${t.ports.etcdPeer}`,
      "--log-level=warn",
    ]);
    await waitFor("etcd", async () => (await httpStatus(`http://127.0.0.1:${t.ports.etcd}/health`)) === 200);
  }
  // both nodes at once: the first to take etcd's initialize key bootstraps the cluster, the other clones
  // it with pg_basebackup and streams from it; on a later start the node Patroni finds healthiest leads
  for (let i = 0; i < 2; i++)
    if (!pidOf(t, `pg${i + 1}`)) {
      log(`Patroni pg${i + 1}: PostgreSQL 15 on 127.0.0.1:${t.ports.pg[i]}, REST on ${t.ports.patroni[i]}`);
      startPatroni(t, i);
    }
  await waitFor("a primary", async () => (await clusterState(t)).leader !== null, 180_000);
  await waitForSteadyCluster(t, { haproxy: false });
  if (!pidOf(t, "haproxy")) {
    log(
      `haproxy: platform on 127.0.0.1:${t.ports.balancer}, primary on ${t.ports.pgPrimary}, reads on ${t.ports.pgReplica}`,
    );
    startProcess(t, "haproxy", "/usr/sbin/haproxy", ["-db", "-f", path.join(t.dir, "haproxy.cfg")]);
  }
  // haproxy's first checks agree with Patroni, and the cluster stayed so (issue 39's flaky start)
  const leader = await waitForSteadyCluster(t, { haproxy: true });
  log(`the cluster is steady: ${leader} leads, its synchronous standby streams, haproxy agrees`);
  // the platform's role and database (migrations create the rest; pg_trgm is a trusted extension),
  // each statement sent again while it fails (a check and its creation in one go: safe to repeat)
  await psqlRetrying(
    t,
    t.ports.pgPrimary,
    `do $$ begin if not exists (select from pg_roles where rolname = 'platform') then create role platform login password '${t.password}'; end if; end $$`,
  );
  await waitFor("the platform's database", () => {
    if (psql(t, t.ports.pgPrimary, "select count(*) from pg_database where datname = 'platform'") === "0")
      psql(t, t.ports.pgPrimary, "create database platform owner platform");
    return true;
  });
  if (!pidOf(t, "pgbouncer")) {
    log(`pgbouncer (transaction mode) on 127.0.0.1:${t.ports.pgbouncer}`);
    startProcess(t, "pgbouncer", "/usr/sbin/pgbouncer", [path.join(t.dir, "pgbouncer.ini")], { asPostgres: true });
  }
  // the build the web processes serve, made once (each would otherwise check it at start)
  if (buildIsStale())
    execFileSync("npx", ["remix", "build"], {
      stdio: "inherit",
      env: { ...process.env, VITE_CJS_IGNORE_WARNING: "1" },
    });
  // workers first: the first one migrates and loads the demo data; the web processes find it done
  for (let i = 0; i < 2; i++) if (!pidOf(t, `worker${i + 1}`)) startWorkerProcess(t, i, options.appEnv);
  for (let i = 0; i < 2; i++) if (!pidOf(t, `web${i + 1}`)) startWeb(t, i, options.appEnv);
  await waitFor(
    "both web processes",
    async () =>
      (await Promise.all(t.ports.web.map((p) => httpStatus(`http://127.0.0.1:${p}/healthz`)))).every((s) => s === 200),
    180_000,
  );
  await waitFor("the balancer", async () => (await httpStatus(`${t.balancerUrl}/healthz`)) === 200);
  // a demo login through the balancer (API and page), as a newcomer would try it
  const signIn = await fetch(`${t.balancerUrl}/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: "merchant@demo.test", password: "demo-merchant-1" }),
  });
  const token = ((await signIn.json()) as { token?: string }).token;
  if (signIn.status !== 200 || !token) throw new Error(`the demo login through the balancer answered ${signIn.status}`);
  log("demo login merchant@demo.test through the balancer: ok");
  return t;
}

/** Stops everything: the platform's processes first (SIGTERM, then SIGKILL), then the engines. */
export async function stopTopology(t: Topology = describeTopology()) {
  const order: Service[] = [
    "web-direct",
    "web-direct-unprepared",
    "web1",
    "web2",
    "worker1",
    "worker2",
    "haproxy",
    "pgbouncer",
    "pg1",
    "pg2",
    "etcd",
  ];
  for (const name of order) {
    const isNode = name === "pg1" || name === "pg2";
    // a node: SIGTERM to Patroni alone (through runuser), which stops its PostgreSQL cleanly
    const pid = pidOf(t, name);
    // (runuser would kill it 2 s after passing the signal on, before PostgreSQL has stopped)
    const signalled = isNode
      ? pid !== null && (isRoot ? childPids(pid) : [pid]).map((p) => process.kill(p, "SIGTERM")).length > 0
      : signalService(t, name, "SIGTERM");
    if (!signalled) {
      if (isNode && postmasterPid(t, name)) crashNode(t, name); // a PostgreSQL its Patroni left behind
      continue;
    }
    const stopped = await waitFor(`${name} to stop`, () => pidOf(t, name) === null, 30_000).then(
      () => true,
      () => false,
    );
    if (!stopped) signalService(t, name, "SIGKILL");
    if (isNode && postmasterPid(t, name)) crashNode(t, name);
    fs.rmSync(pidFile(t, name), { force: true });
    log(`${name} stopped`);
  }
}

async function main() {
  const command = process.argv[2] ?? "up";
  if (command === "up") {
    const t = await startTopology();
    const state = await clusterState(t);
    console.log(`
  The platform, through haproxy:    ${t.balancerUrl}   (storefronts on ${t.storefrontUrl})
  Web processes:                    ${t.ports.web.map((p) => `127.0.0.1:${p}`).join(", ")} (haproxy checks /healthz)
  Workers:                          2 (logs in ${t.dir})
  PostgreSQL 15 (Patroni, etcd):    ${t.ports.pg.map((p, i) => `pg${i + 1} 127.0.0.1:${p}`).join(", ")}  ${JSON.stringify(state.members)}
  Primary (haproxy):                ${t.primaryUrl.replace(t.password, "***")}
  Reads (haproxy, any node):        ${t.replicaUrl.replace(t.password, "***")}
  pgbouncer (transaction mode):     ${t.poolerUrl.replace(t.password, "***")}

  Demo logins: merchant@demo.test / demo-merchant-1, developer@demo.test / demo-developer-1, reviewer@demo.test / demo-reviewer-1
  Stop it all: npm run topology -- down
`);
  } else if (command === "down") {
    await stopTopology();
  } else if (command === "status") {
    const t = describeTopology();
    for (const name of ["etcd", "pg1", "pg2", "haproxy", "pgbouncer", "web1", "web2", "worker1", "worker2"])
      console.log(`${name.padEnd(10)} ${pidOf(t, name) ? `running (pid ${pidOf(t, name)})` : "stopped"}`);
    console.log(JSON.stringify(await clusterState(t)));
  } else {
    console.error("usage: topology.ts up|down|status");
    process.exit(2);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
