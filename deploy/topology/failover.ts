/**
 * The failover chaos test (issue 34, docs/reliability.md "Failover"): the whole topology of
 * deploy/topology/topology.ts under 8 clients placing orders through the balancer with
 * Idempotency-Keys, order.created webhooks flowing to a receiver on 127.0.0.1, while it
 *   kills -9 each web process and each worker (and starts them again),
 *   crashes the primary (kill -9 of Patroni and PostgreSQL together) so the synchronous standby takes over,
 *   brings the old primary back, which Patroni rewinds and makes the new standby.
 * Then it checks from outside: every acknowledged order exists once on the new primary (0 lost,
 * 0 doubled), every order.created event was delivered (duplicates counted), and reports the time
 * without a writable primary and the time until every order was answered again.
 *
 *   npm run test:failover            the short version (CI, .ci/run): one round of faults
 *   npm run bench:failover           the full one, beside the benchmarks: three rounds, the report in
 *                                    bench/results/failover.json
 *
 * Exit code 0 when nothing was lost or doubled and every event was delivered; 1 otherwise.
 */
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import "../../db/postgres-fix";
import { createDb } from "../../db/client";
import { loadEnv } from "../../app/platform/core/env.server";
import {
  clusterState,
  crashNode,
  describeTopology,
  pidOf,
  signalService,
  startPatroni,
  startTopology,
  startWeb,
  startWorkerProcess,
  stopTopology,
  waitFor,
  waitForSteadyCluster,
  type Topology,
} from "./topology";
import { sandboxApp } from "./sandbox-app";

const CLIENTS = 8;
const BASE = Number(process.env.FAILOVER_TOPOLOGY_PORT ?? 7500);
const args = process.argv.slice(2);
const rounds = args.includes("--short") ? 1 : Number(args[args.indexOf("--rounds") + 1] || 3);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const say = (line: string) => console.log(`[failover] ${line}`);

/** The receiver: records each delivery id (X-Service-Event-Id) it was sent, answering 200. */
async function startReceiver() {
  const received: string[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received.push(String(req.headers["x-service-event-id"]));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/hooks`, received, close: () => server.close() };
}

type Attempt = { key: string; acknowledged: string | null; tries: number; at?: number };

async function main() {
  const started = Date.now();
  // a topology of its own (TOPOLOGY_PORT 7500 unless FAILOVER_TOPOLOGY_PORT says otherwise), so
  // that `npm run topology`'s is never touched, and every process starts with the test's settings
  // from a new cluster every time: whatever an earlier run left is stopped and removed
  const previous = describeTopology(BASE);
  await stopTopology(previous);
  fs.rmSync(previous.dir, { recursive: true, force: true });
  const t = await startTopology({
    base: BASE,
    appEnv: { APP_API_RATE_LIMIT: "100000000", WORKER_STRANDED_AFTER_MS: "5000" },
  });
  say(
    `topology up in ${((Date.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify((await clusterState(t)).members)}`,
  );
  // the test's own view of the database: both nodes, whichever is the primary (as the web processes)
  const db = createDb(t.multiHostUrl, { max: 4 });
  const env = loadEnv({ ...t.env, DATABASE_URL: t.multiHostUrl });
  const receiver = await startReceiver();

  // a developer's sandbox business, an app installed on it, a webhook for order.created
  const sandbox = await sandboxApp(db.db, env, {
    label: "failover",
    scopes: ["read_orders", "write_orders", "read_products"],
    webhook: { url: receiver.url, events: ["order.created"] },
  });
  const { business } = sandbox;

  // 8 clients: each places orders one after another, each with its own Idempotency-Key, retrying a
  // key (same body) until it is acknowledged with 201; 503s and refused connections are counted
  let stop = false;
  const attempts: Attempt[] = [];
  const statuses: Record<string, number> = {};
  const acknowledgedAt: number[] = [];
  const client = async (c: number) => {
    for (let n = 0; !stop; n++) {
      const attempt: Attempt = {
        key: `failover-${c}-${n}-${randomBytes(3).toString("hex")}`,
        acknowledged: null,
        tries: 0,
      };
      attempts.push(attempt);
      const body = JSON.stringify({
        customer: { name: `Client ${c}`, phone: "555" },
        items: [{ productId: sandbox.productId, quantity: 1 }],
        deliveryMethod: "PICKUP",
        paymentMethod: "CASH",
        notes: attempt.key,
      });
      while (!attempt.acknowledged) {
        attempt.tries++;
        let status = "error";
        try {
          const res = await fetch(`${t.balancerUrl}/app-api/orders`, {
            method: "POST",
            headers: {
              Authorization: `Bearer ${sandbox.token}`,
              "Content-Type": "application/json",
              "Idempotency-Key": attempt.key,
            },
            body,
            signal: AbortSignal.timeout(15_000),
          });
          status = String(res.status);
          const json = (await res.json().catch(() => null)) as { id?: string } | null;
          if (res.status === 201 && json?.id) {
            attempt.acknowledged = json.id;
            attempt.at = Date.now();
            acknowledgedAt.push(attempt.at);
          }
        } catch (e) {
          status = (e as Error).name === "TimeoutError" ? "timeout" : "connection";
        }
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (!attempt.acknowledged) {
          // stopping: this key is left unacknowledged (not counted as an order the platform owes)
          if (stop) break;
          await sleep(250);
        }
      }
    }
  };
  const clients = Array.from({ length: CLIENTS }, (_, c) => client(c));
  const acknowledged = () => attempts.filter((a) => a.acknowledged).length;
  const progress = async (label: string, min = 20) => {
    const before = acknowledged();
    await waitFor(`orders after ${label}`, () => acknowledged() >= before + min, 180_000);
  };
  await progress("start");

  const faults: { fault: string; ms: number }[] = [];
  let withoutPrimaryMs = 0;
  let untilFullServiceMs = 0;
  let worker2FollowedMs = 0;
  let listenersFollowedMs = 0;
  /** the "standby away" phase (decision 052): what the primary acknowledged alone, and whether the standby took over without it */
  const alone = {
    keys: [] as string[],
    untilAloneMs: 0,
    standbyWatchedMs: 0,
    standbyPromoted: false,
    primaryBackMs: 0,
  };
  for (let round = 1; round <= rounds; round++) {
    say(`round ${round}/${rounds}: ${acknowledged()} orders acknowledged so far`);
    // each web process, then each worker: kill -9, start again, wait for it and for orders to flow
    for (const [name, restart] of [
      ["web1", () => startWeb(t, 0, { APP_API_RATE_LIMIT: "100000000" })],
      ["web2", () => startWeb(t, 1, { APP_API_RATE_LIMIT: "100000000" })],
      ["worker1", () => startWorkerProcess(t, 0, { WORKER_STRANDED_AFTER_MS: "5000" })],
      ["worker2", () => startWorkerProcess(t, 1, { WORKER_STRANDED_AFTER_MS: "5000" })],
    ] as const) {
      const at = Date.now();
      signalService(t, name, "SIGKILL");
      await waitFor(`${name} to die`, () => pidOf(t, name) === null, 10_000);
      await progress(`kill -9 ${name}`, 10);
      const log = path.join(t.dir, `${name}.log`);
      const started = () => (fs.readFileSync(log, "utf8").match(/Worker running\./g) ?? []).length;
      const startedBefore = started();
      restart();
      if (name.startsWith("web")) {
        const port = t.ports.web[Number(name.slice(3)) - 1];
        await waitFor(`${name} back`, async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok, 300_000);
      } else {
        // until it runs (its migrations done, its dispatcher listening): a worker still starting
        // when the primary crashes meets the promotion and exits (issue 39's first runs)
        await waitFor(`${name} back`, () => started() > startedBefore, 300_000);
      }
      faults.push({ fault: `kill -9 ${name}`, ms: Date.now() - at });
      say(`kill -9 ${name}: back after ${((Date.now() - at) / 1000).toFixed(1)} s`);
    }

    // crash the primary: Patroni and its PostgreSQL killed at once (as a host dying)
    const { leader } = await clusterState(t);
    if (!leader) throw new Error("no leader before the crash");
    const other = leader === "pg1" ? "pg2" : "pg1";
    const otherPatroni = t.ports.patroni[other === "pg1" ? 0 : 1];
    const crashAt = Date.now();
    crashNode(t, leader);
    say(`crashed the primary ${leader}; waiting for ${other} to take over`);
    await waitFor(
      `${other} to be a writable primary`,
      async () =>
        (await fetch(`http://127.0.0.1:${otherPatroni}/primary`, { signal: AbortSignal.timeout(1000) })).status === 200,
      120_000,
    );
    const writable = Date.now();
    withoutPrimaryMs = Math.max(withoutPrimaryMs, writable - crashAt);
    // full service: orders acknowledged again through the balancer, after the new primary took writes
    await waitFor("orders after the failover", () => acknowledgedAt.some((a) => a > writable), 120_000);
    untilFullServiceMs = Math.max(
      untilFullServiceMs,
      Math.min(...acknowledgedAt.filter((a) => a > writable)) - crashAt,
    );
    say(
      `${other} is the primary after ${((writable - crashAt) / 1000).toFixed(1)} s; orders answered again after ${(untilFullServiceMs / 1000).toFixed(1)} s`,
    );
    // worker2 lists both nodes in its URL (db/primary.ts): its graphile-worker session must now be on
    // the new primary (worker1 reaches it through haproxy)
    await waitFor(
      "worker2's graphile-worker session on the new primary",
      async () => {
        const [{ n }] = await db.db.execute<{ n: number }>(
          sql`select count(*)::int as n from pg_stat_activity where application_name = 'worker2' and query like 'LISTEN "jobs:insert"%'`,
        );
        return n > 0;
      },
      120_000,
    );
    worker2FollowedMs = Math.max(worker2FollowedMs, Date.now() - writable);
    say(
      `worker2 (both nodes in its URL) listens on the new primary ${(worker2FollowedMs / 1000).toFixed(1)} s after it took writes`,
    );
    // every LISTEN follows the primary too (decision 053): each worker's dispatchers (webhook
    // deliveries, mail) listen on one session of the worker's own, opened again on the new primary
    // after the old closed; it issues one LISTEN per channel, so the session's last statement is
    // either channel's
    await waitFor(
      "both workers' dispatcher LISTEN session on the new primary",
      async () => {
        const [{ n }] = await db.db.execute<{ n: number }>(
          sql`select count(*)::int as n from pg_stat_activity
              where query in ('listen "webhook_deliveries"', 'listen "mail_messages"')`,
        );
        return n >= 2;
      },
      120_000,
    );
    listenersFollowedMs = Math.max(listenersFollowedMs, Date.now() - writable);
    say(`both dispatchers LISTEN on the new primary ${(listenersFollowedMs / 1000).toFixed(1)} s after it took writes`);
    // the old primary comes back: Patroni rewinds it and makes it the synchronous standby
    startPatroni(t, leader === "pg1" ? 0 : 1);
    await waitFor(
      `${leader} back as the synchronous standby`,
      async () =>
        ["sync_standby/running", "sync_standby/streaming"].includes((await clusterState(t)).members[leader] ?? ""),
      180_000,
    );
    await waitForSteadyCluster(t, { haproxy: true });
    faults.push({ fault: `crash primary ${leader}`, ms: Date.now() - crashAt });
    say(`${leader} is back as the synchronous standby ${((Date.now() - crashAt) / 1000).toFixed(1)} s after the crash`);
    await progress("the old primary's return");

    await standbyAway(other, leader);
  }

  /**
   * The synchronous standby away (decision 052: synchronous_mode without _strict). Its host dies:
   * Patroni takes it out of synchronous_standby_names and the primary goes on alone, so orders are
   * acknowledged on one node. Then the primary's host dies too and the standby's comes back first:
   * it lacks those orders, and Patroni must not promote it (with synchronous_mode only the node
   * named in /sync may lead); the service waits for the primary, which comes back with them, and
   * the standby catches up. The ledger at the end checks every one of those orders.
   */
  async function standbyAway(primary: string, standby: string) {
    const index = (name: string) => (name === "pg1" ? 0 : 1);
    const awayAt = Date.now();
    crashNode(t, standby);
    say(`crashed the synchronous standby ${standby}; ${primary} should go on alone`);
    await waitFor(
      `${primary} alone (no synchronous standby named)`,
      async () => {
        const [row] = await db.db.execute<{ names: string }>(
          sql`select current_setting('synchronous_standby_names') as names`,
        );
        return row.names === "";
      },
      60_000,
    );
    const aloneAt = Date.now();
    alone.untilAloneMs = Math.max(alone.untilAloneMs, aloneAt - awayAt);
    await progress(`${standby} away`, 20);
    const aloneKeys = attempts.filter((a) => a.at !== undefined && a.at > aloneAt).map((a) => a.key);
    alone.keys.push(...aloneKeys);
    say(
      `${primary} went on alone ${((aloneAt - awayAt) / 1000).toFixed(1)} s after the standby's crash; ${aloneKeys.length} orders acknowledged on it alone`,
    );

    // the primary dies too; the standby comes back first and must not take the lead
    const bothAt = Date.now();
    crashNode(t, primary);
    startPatroni(t, index(standby));
    // watched until the dead primary's leader key is long gone (2.5 × Patroni's ttl) and the standby's
    // PostgreSQL has run for more than a ttl, able to be promoted: Patroni looks every second
    const states = new Set<string>();
    let runningSince = 0;
    await waitFor(
      `${standby} running alone long enough to have been promoted`,
      async () => {
        const state = await clusterState(t);
        if (state.leader === standby) return (alone.standbyPromoted = true);
        const member = state.members[standby] ?? "absent";
        states.add(member);
        if (/^replica\/(running|streaming)$/.test(member)) runningSince ||= Date.now();
        else runningSince = 0;
        return Date.now() - bothAt >= 25_000 && runningSince > 0 && Date.now() - runningSince >= 12_000;
      },
      180_000,
    );
    alone.standbyWatchedMs = Date.now() - bothAt;
    say(
      `${standby} ran alone for ${(alone.standbyWatchedMs / 1000).toFixed(1)} s (${[...states].join(", ")}) and was ${alone.standbyPromoted ? "PROMOTED without the orders acknowledged alone" : "not promoted"}`,
    );
    // the primary comes back and leads again; the standby catches up and is synchronous again
    startPatroni(t, index(primary));
    await waitFor("a leader again", async () => (await clusterState(t)).leader !== null, 180_000);
    const backAt = Date.now();
    alone.primaryBackMs = Math.max(alone.primaryBackMs, backAt - bothAt);
    await waitForSteadyCluster(t, { haproxy: true });
    faults.push({ fault: `standby ${standby} away, then primary ${primary} crashed`, ms: Date.now() - awayAt });
    say(
      `${(await clusterState(t)).leader} leads again ${((backAt - bothAt) / 1000).toFixed(1)} s after the second crash; steady after ${((Date.now() - awayAt) / 1000).toFixed(1)} s in all`,
    );
    await progress("the standby-away phase");
  }

  stop = true;
  await Promise.all(clients);

  // the ledger: read on the new primary
  const acked = attempts.filter((a) => a.acknowledged);
  const rows = await db.db.execute<{ id: string; notes: string }>(
    sql`select id, notes from orders where business_id = ${business.id} and notes like 'failover-%'`,
  );
  const ordersByKey = new Map<string, string[]>();
  for (const r of rows) ordersByKey.set(r.notes, [...(ordersByKey.get(r.notes) ?? []), r.id]);
  const lostOrders = acked.filter((a) => !(ordersByKey.get(a.key) ?? []).includes(a.acknowledged!));
  const aloneKeys = new Set(alone.keys);
  const lostAlone = lostOrders.filter((a) => aloneKeys.has(a.key)).length;
  const doubled = [...ordersByKey.values()].filter((ids) => ids.length > 1).length;
  const events = await db.db.execute<{ id: string; order_id: string }>(
    sql`select id, data->>'orderId' as order_id from platform_events where business_id = ${business.id} and type = 'order.created' and data->>'orderId' in ${sql`(${sql.join(
      rows.map((r) => sql`${r.id}`),
      sql`, `,
    )})`}`,
  );
  const ordersWithoutEvent = rows.length - new Set(events.map((e) => e.order_id)).size;
  // every event delivered: wait (bounded) until each delivery is SUCCEEDED and was received
  const eventIds = events.map((e) => e.id);
  let deliveries: { id: string; status: string }[] = [];
  await waitFor(
    "every event delivered",
    async () => {
      deliveries = await db.db.execute<{ id: string; status: string }>(
        sql`select d.id, d.status from webhook_deliveries d where d.event_id in ${sql`(${sql.join(
          eventIds.map((i) => sql`${i}`),
          sql`, `,
        )})`}`,
      );
      const got = new Set(receiver.received);
      return deliveries.length === eventIds.length && deliveries.every((d) => got.has(d.id));
    },
    180_000,
  ).catch(() => undefined);
  const got = new Map<string, number>();
  for (const id of receiver.received) got.set(id, (got.get(id) ?? 0) + 1);
  const undelivered = eventIds.length - deliveries.filter((d) => got.has(d.id)).length;
  const duplicates = [...got.values()].reduce((s, n) => s + n - 1, 0);

  const report = {
    rounds,
    clients: CLIENTS,
    ordersAcknowledged: acked.length,
    ordersInDatabase: rows.length,
    lostOrders: lostOrders.length,
    doubledOrders: doubled,
    ordersWithoutEvent,
    events: eventIds.length,
    undeliveredEvents: undelivered,
    duplicateDeliveries: duplicates,
    answers: statuses,
    secondsWithoutWritablePrimary: withoutPrimaryMs / 1000,
    secondsUntilOrdersAnsweredAgain: untilFullServiceMs / 1000,
    secondsUntilWorker2OnNewPrimary: worker2FollowedMs / 1000,
    secondsUntilListenersOnNewPrimary: listenersFollowedMs / 1000,
    standbyAway: {
      secondsUntilPrimaryAlone: alone.untilAloneMs / 1000,
      ordersAcknowledgedOnPrimaryAlone: alone.keys.length,
      lostOfThose: lostAlone,
      secondsStandbyWatchedWithoutPrimary: alone.standbyWatchedMs / 1000,
      standbyPromotedWithoutThem: alone.standbyPromoted,
      secondsUntilPrimaryLeadsAgain: alone.primaryBackMs / 1000,
    },
    faults,
    cluster: (await clusterState(t)).members,
    totalSeconds: (Date.now() - started) / 1000,
  };
  console.log(JSON.stringify(report, null, 2));
  const ok =
    lostOrders.length === 0 &&
    doubled === 0 &&
    ordersWithoutEvent === 0 &&
    undelivered === 0 &&
    !alone.standbyPromoted &&
    alone.keys.length > 0;
  say(
    `${ok ? "PASS" : "FAIL"}: ${acked.length} orders acknowledged, ${lostOrders.length} lost, ${doubled} doubled; ${eventIds.length} events, ${undelivered} undelivered, ${duplicates} duplicate deliveries; ${alone.keys.length} acknowledged by the primary alone, ${lostAlone} of them lost, standby ${alone.standbyPromoted ? "PROMOTED without them" : "not promoted without them"}; ${report.secondsWithoutWritablePrimary} s without a writable primary, orders answered again ${report.secondsUntilOrdersAnsweredAgain} s after the crash`,
  );
  if (process.env.FAILOVER_RESULT) fs.writeFileSync(process.env.FAILOVER_RESULT, JSON.stringify(report, null, 2));
  receiver.close();
  await db.close();
  if (!args.includes("--keep")) await stopTopology(t as Topology);
  process.exit(ok ? 0 : 1);
}

main().catch(async (e) => {
  console.error("[failover] error:", e);
  if (!args.includes("--keep")) await stopTopology(describeTopology(BASE)).catch(() => undefined);
  process.exit(1);
});
