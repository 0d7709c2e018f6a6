/**
 * What the replicated topology adds or costs (issue 34 point 5, docs/scaling.md "What the topology
 * costs"), in one run on a topology of its own (deploy/topology/topology.ts on BENCH_TOPOLOGY_PORT,
 * 7600): PostgreSQL 15 with fsync on and a synchronous standby (Patroni, etcd), pgbouncer in
 * transaction mode, haproxy, two web processes and two workers, plus web processes straight
 * on the nodes (no pooler, no balancer), with and without prepared statements.
 *
 *   commits  8 sessions each committing one-row inserts on the primary for 5 s, with
 *            synchronous_commit on (the standby has the commit before it is acknowledged) and
 *            local (it does not wait): what synchronous replication costs a commit
 *   B1       GET /app-api/products?limit=50 at 16 connections: through the balancer (two web
 *            processes, pgbouncer, catalog reads on haproxy's read port), one web process on its own
 *            port (still pgbouncer), and a web process straight on the nodes without prepared
 *            statements (DATABASE_PREPARE=false, as behind the pooler) and with them; twice each,
 *            interleaved
 *   orders   POST /app-api/orders at 8 connections, each an order durable on both nodes: through
 *            the balancer and the two direct web processes; twice each, interleaved
 *   B2       5,000 webhook deliveries queued while the workers are stopped, then delivered by the
 *            two workers through haproxy's primary port, and again by two workers on the primary's
 *            own port
 *
 *   npm run bench:topology          (writes bench/results/topology.json; about 4 minutes)
 *
 * The load generator shares the machine's two cores with everything it measures, as in every
 * benchmark here; what compares is the paths measured in the same run.
 */
import http from "node:http";
import fs from "node:fs";
import postgres from "postgres";
import "../db/postgres-fix";
import { createDb } from "../db/client";
import { loadEnv } from "../app/platform/core/env.server";
import {
  clusterState,
  describeTopology,
  pidOf,
  signalService,
  startDirectWeb,
  startTopology,
  startWorkerProcess,
  stopTopology,
  waitFor,
  type Topology,
} from "../deploy/topology/topology";
import { sandboxApp } from "../deploy/topology/sandbox-app";
import { emitStatusChanges } from "./fixtures";
import { load, percentile, round2, table, writeResult } from "./lib";

const BASE = Number(process.env.BENCH_TOPOLOGY_PORT ?? 7600);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 5_000);
const APP_ENV = { APP_API_RATE_LIMIT: "100000000" };
const say = (line: string) => console.log(`[bench:topology] ${line}`);

/** Commits per second of `sessions` sessions inserting one row per transaction for `seconds`. */
async function commits(url: string, synchronousCommit: "on" | "local", sessions = 8, seconds = 5) {
  const db = postgres(url, {
    max: sessions,
    onnotice: () => {},
    connection: { synchronous_commit: synchronousCommit, application_name: "bench-commits" },
  });
  try {
    const latencies: number[] = [];
    const until = Date.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: sessions }, async () => {
        while (Date.now() < until) {
          const started = performance.now();
          await db`insert into bench_commits default values`;
          latencies.push(performance.now() - started);
        }
      }),
    );
    return {
      synchronous_commit: synchronousCommit,
      sessions,
      "commits/s": Math.round(latencies.length / seconds),
      "p50 ms": round2(percentile(latencies, 50)),
      "p99 ms": round2(percentile(latencies, 99)),
    };
  } finally {
    await db.end();
  }
}

/** A receiver answering 200 at once, recording each delivery id and when it arrived. */
async function startReceiver() {
  const received = new Map<string, number>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const id = String(req.headers["x-service-event-id"]);
      if (!received.has(id)) received.set(id, Date.now());
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/hooks`, received, close: () => server.close() };
}

async function stopWorkers(t: Topology) {
  for (const name of ["worker1", "worker2"]) {
    signalService(t, name, "SIGTERM");
    await waitFor(`${name} to stop`, () => pidOf(t, name) === null, 30_000);
  }
}

async function main() {
  const started = Date.now();
  const previous = describeTopology(BASE);
  await stopTopology(previous);
  fs.rmSync(previous.dir, { recursive: true, force: true });
  const t = await startTopology({ base: BASE, appEnv: APP_ENV });
  startDirectWeb(t, { prepare: true }, APP_ENV);
  startDirectWeb(t, { prepare: false }, APP_ENV);
  const direct = `http://127.0.0.1:${t.ports.webDirect}`;
  const unprepared = `http://127.0.0.1:${t.ports.webDirectUnprepared}`;
  for (const url of [direct, unprepared])
    await waitFor(`the direct web process ${url}`, async () => (await fetch(`${url}/healthz`)).ok, 180_000);
  const { leader, members } = await clusterState(t);
  const leaderPort = t.ports.pg[leader === "pg1" ? 0 : 1];
  say(`topology up in ${((Date.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(members)}`);
  const db = createDb(t.multiHostUrl, { max: 4 });
  const env = loadEnv({ ...t.env, DATABASE_URL: t.multiHostUrl });
  const receiver = await startReceiver();
  try {
    // --- commits: what the synchronous standby costs one commit
    await db.sql`create table if not exists bench_commits (id bigserial primary key, at timestamptz not null default now())`;
    const commitRows: Record<string, unknown>[] = [];
    for (const mode of ["on", "local", "on", "local"] as const) commitRows.push(await commits(t.multiHostUrl, mode));
    await db.sql`drop table bench_commits`;
    table("Commits on the primary, 8 sessions, fsync on, a synchronous standby", commitRows);

    const sandbox = await sandboxApp(db.db, env, {
      label: "bench-topology",
      scopes: ["read_products", "read_orders", "write_orders"],
      webhook: { url: receiver.url, events: ["order.status_changed"] },
    });
    const headers = { Authorization: `Bearer ${sandbox.token}` };
    const paths = [
      { path: "balancer → 2 web → pgbouncer (reads: haproxy's read port)", url: t.balancerUrl },
      { path: "1 web process → pgbouncer", url: `http://127.0.0.1:${t.ports.web[0]}` },
      { path: "1 web process → the nodes, DATABASE_PREPARE=false", url: unprepared },
      { path: "1 web process → the nodes (direct)", url: direct },
    ];
    const checked = <T extends { errors: number; non2xx: number }>(what: string, r: T) => {
      if (r.errors || r.non2xx) throw new Error(`${what}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      return r;
    };

    // --- B1: the App API's product list
    const b1: Record<string, unknown>[] = [];
    for (let round = 1; round <= 2; round++)
      for (const p of paths) {
        const r = checked(
          `B1 ${p.path}`,
          await load(`${p.url}/app-api/products?limit=50`, { connections: 16, durationSec: SECONDS, headers }),
        );
        b1.push({ round, path: p.path, "req/s": r.rps, "p50 ms": r.p50, "p99 ms": r.p99 });
      }
    table("B1 GET /app-api/products?limit=50, 16 connections", b1);

    // --- orders, each durable on both nodes
    const body = JSON.stringify({
      customer: { name: "Bench", phone: "555" },
      items: [{ productId: sandbox.productId, quantity: 1 }],
      deliveryMethod: "PICKUP",
      paymentMethod: "CASH",
    });
    const orders: Record<string, unknown>[] = [];
    for (let round = 1; round <= 2; round++)
      for (const p of [paths[0], paths[2], paths[3]]) {
        const r = checked(
          `orders ${p.path}`,
          await load(`${p.url}/app-api/orders`, {
            connections: 8,
            durationSec: SECONDS,
            method: "POST",
            body,
            headers: { ...headers, "Content-Type": "application/json" },
          }),
        );
        orders.push({ round, path: p.path, "orders/s": r.rps, "p50 ms": r.p50, "p99 ms": r.p99 });
      }
    table("Orders: POST /app-api/orders, 8 connections, durable on both nodes", orders);

    // --- B2: a backlog of deliveries, drained by two workers through haproxy, then on the primary itself
    const b2: Record<string, unknown>[] = [];
    const primaryDirect = `postgres://platform:${t.password}@127.0.0.1:${leaderPort}/platform`;
    for (const [path, url] of [
      ["2 workers → haproxy's primary port", t.primaryUrl],
      ["2 workers → the primary's own port (direct)", primaryDirect],
    ] as const) {
      await stopWorkers(t);
      receiver.received.clear();
      await emitStatusChanges(db.db, sandbox.business.id, EVENTS);
      const startedAt = Date.now();
      for (let i = 0; i < 2; i++) startWorkerProcess(t, i, { ...APP_ENV, DATABASE_URL: url });
      await waitFor(`${EVENTS} deliveries (${path})`, () => receiver.received.size >= EVENTS, 600_000);
      const times = [...receiver.received.values()];
      const first = Math.min(...times);
      const last = Math.max(...times);
      b2.push({
        path,
        deliveries: receiver.received.size,
        "deliveries/s (first to last)": Math.round(EVENTS / ((last - first) / 1000)),
        "s from the workers' start": round2((last - startedAt) / 1000),
      });
    }
    table(`B2 ${EVENTS} queued deliveries to one receiver`, b2);

    const mean = (rows: Record<string, unknown>[], field: string, value: string, key: string) => {
      const values = rows.filter((r) => r[field] === value).map((r) => Number(r[key]));
      return Math.round(values.reduce((s, v) => s + v, 0) / values.length);
    };
    const summary = {
      "commits/s, synchronous standby : local only": ["on", "local"]
        .map((m) => mean(commitRows, "synchronous_commit", m, "commits/s"))
        .join(" : "),
      "B1 req/s balancer : one web via pgbouncer : direct unprepared : direct": paths
        .map((p) => mean(b1, "path", p.path, "req/s"))
        .join(" : "),
      "orders/s balancer : direct unprepared : direct": [paths[0], paths[2], paths[3]]
        .map((p) => mean(orders, "path", p.path, "orders/s"))
        .join(" : "),
      "B2 deliveries/s haproxy : direct": b2.map((r) => r["deliveries/s (first to last)"]).join(" : "),
    };
    console.log(summary);
    writeResult("topology", {
      seconds: SECONDS,
      events: EVENTS,
      members,
      commits: commitRows,
      b1,
      orders,
      b2,
      summary,
    });
    say(`finished in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    receiver.close();
    await db.close();
    if (!process.argv.includes("--keep")) await stopTopology(t);
  }
}

main().then(
  () => process.exit(0),
  async (e) => {
    console.error("[bench:topology] error:", e);
    if (!process.argv.includes("--keep")) await stopTopology(describeTopology(BASE)).catch(() => undefined);
    process.exit(1);
  },
);
