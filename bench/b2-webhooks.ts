/**
 * B2 Webhooks: a burst of 10,000 events to a receiver on 127.0.0.1 that answers at once:
 * deliveries per second and p50/p99 from commit to receipt; against graphile-worker alone running
 * 10,000 no-op jobs on the same database in the same run.
 */
import http from "node:http";
import { listenLocally } from "../app/platform/testing/listen";
import { sql } from "drizzle-orm";
import { run as runWorker, type Runner } from "graphile-worker";
import { startBench, developer, percentile, table, writeResult, runIfMain, round2 } from "./lib";
import { emitStatusChanges, testInstallToken } from "./fixtures";
import { approveApp } from "../app/platform/apps/review.server";
import { submitApp } from "../app/platform/apps/apps.server";
import { createAccount } from "../app/platform/accounts/accounts.server";
import { quietLogger } from "../db/migrate";
import { REVIEW_CRITERIA_KEYS } from "../app/platform/shapes/app-catalog";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const CONCURRENCY = 20;

export async function run() {
  // the floor first, on its own database: graphile-worker alone, 10,000 no-op jobs
  const floor = await startBench();
  let floorSeconds: number;
  try {
    await floor.db.db.execute(
      sql`select graphile_worker.add_jobs(array(select row('noop', '{}'::json, null, null, null, null, null, null)::graphile_worker.job_spec from generate_series(1, ${EVENTS})))`,
    );
    const started = performance.now();
    const runner: Runner = await runWorker({
      connectionString: floor.dbUrl,
      concurrency: CONCURRENCY,
      maxPoolSize: CONCURRENCY + 2,
      noHandleSignals: true,
      pollInterval: 100,
      taskList: { noop: async () => {} },
      logger: quietLogger,
    });
    for (;;) {
      const [{ n }] = await floor.db.db.execute<{ n: number }>(
        sql`select count(*)::int as n from graphile_worker.jobs`,
      );
      if (n === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    floorSeconds = (performance.now() - started) / 1000;
    await runner.stop();
  } finally {
    await floor.close();
  }

  const b = await startBench({ worker: true, workerConcurrency: CONCURRENCY });
  try {
    const received = new Map<string, number>();
    const latencies: number[] = [];
    let last = 0;
    const receiver = http.createServer((req, res) => {
      let raw = "";
      req.on("data", (c) => (raw += c));
      req.on("end", () => {
        const at = Date.now();
        res.writeHead(200).end();
        const body = JSON.parse(raw);
        if (received.has(body.id)) return;
        received.set(body.id, at);
        latencies.push(at - new Date(body.timestamp).getTime());
        last = at;
      });
    });
    receiver.keepAliveTimeout = 60_000;
    const url = `${await listenLocally(receiver)}/hooks`;
    const dev = await developer(b);
    const { appId } = await testInstallToken(b, dev, ["read_orders"], {
      webhookUrl: url,
      webhookEvents: ["order.status_changed"],
    });
    // a production install (approval converts the test install), so deliveries also feed the analytics rollup
    const reviewer = await createAccount(b.db.db, {
      email: `rev-${Date.now()}@bench.test`,
      password: "bench-password",
      name: "R",
      role: "REVIEWER",
    });
    await submitApp(b.db.db, dev.account.id, appId);
    await approveApp(b.db.db, reviewer.account.id, appId, REVIEW_CRITERIA_KEYS);

    // the burst: 10,000 events committed in batches of 500 (each batch one transaction)
    const started = Date.now();
    await emitStatusChanges(b.db.db, dev.business.id, EVENTS);
    const committed = Date.now();
    const deadline = Date.now() + 600_000;
    while (received.size < EVENTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const seconds = (last - started) / 1000;
    const [{ failed }] = await b.db.db.execute<{ failed: number }>(
      sql`select count(*)::int as failed from webhook_deliveries where status <> 'SUCCEEDED'`,
    );
    const row = {
      events: EVENTS,
      delivered: received.size,
      "not succeeded": failed,
      "enqueue s": Math.round((committed - started) / 100) / 10,
      "total s": Math.round(seconds * 10) / 10,
      "deliveries/s": Math.round(received.size / seconds),
      "p50 commit→receipt ms": percentile(latencies, 50),
      "p99 commit→receipt ms": percentile(latencies, 99),
      "graphile-worker alone jobs/s": Math.round(EVENTS / floorSeconds),
      ratio: round2(received.size / seconds / (EVENTS / floorSeconds)),
    };
    table("B2 Webhooks: burst of events to one receiver", [row]);
    writeResult("b2-webhooks", { concurrency: CONCURRENCY, ...row });
    receiver.close();
    return row;
  } finally {
    await b.close();
  }
}

runIfMain(import.meta.url, run);
