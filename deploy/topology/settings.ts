/**
 * The topology's settings (issue 34, decision 038): its ports from one base, its directory, its
 * secrets (kept in that directory) and the URLs and environment every process of it is given; and
 * the Debian packages it runs on, installed when missing. The rest: configs.ts (what each engine
 * reads), processes.ts (starting and stopping one process), cluster.ts (what the cluster says of
 * itself) and topology.ts (everything up or down, and the CLI).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";

export const PG_BIN = "/usr/lib/postgresql/15/bin";
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

export const isRoot = process.getuid?.() === 0;

export function log(line: string) {
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
