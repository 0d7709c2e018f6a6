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
 *
 * This file brings the whole up and down and is the CLI; its pieces: settings.ts (ports, secrets,
 * URLs, packages), configs.ts (each engine's configuration), processes.ts (one process at a time)
 * and cluster.ts (what Patroni, haproxy and PostgreSQL say of the cluster).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describeTopology, ensurePackages, isRoot, log, type Topology } from "./settings";
import { haproxyConfig, patroniConfig, pgbouncerConfig } from "./configs";
import {
  buildIsStale,
  childPids,
  crashNode,
  httpStatus,
  nodeEnv,
  pidFile,
  pidOf,
  postmasterPid,
  signalService,
  startPatroni,
  startProcess,
  startWeb,
  startWorkerProcess,
  waitFor,
  type Service,
} from "./processes";
import { clusterState, psql, psqlRetrying, waitForSteadyCluster } from "./cluster";

export { describeTopology, ensurePackages, portsFrom, topologyDir, type Ports, type Topology } from "./settings";
export {
  crashNode,
  nodeEnv,
  pidOf,
  signalService,
  startDirectWeb,
  startPatroni,
  startWeb,
  startWorkerProcess,
  waitFor,
  type Service,
} from "./processes";
export { clusterState, haproxyServers, waitForSteadyCluster } from "./cluster";

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
