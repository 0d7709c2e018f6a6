/**
 * The graphile-worker runner with the platform's task list. `npm start` runs it beside the web
 * server; `npm run worker` runs it alone. Several workers may share one database.
 */
import { run, type Runner, type TaskList } from "graphile-worker";
import { handlePoolErrors, pgPool } from "../db/primary";
import type { WorkerDeps } from "./deps";
import { quietLogger } from "../db/migrate";
import { maintenanceCleanup } from "./tasks/maintenance__cleanup";
import { activityPrune } from "./tasks/activity__prune";
import { devtoolsPruneLogs } from "./tasks/devtools__prune_logs";
import { eventFanout } from "./tasks/event__fanout";
import { webhookDeliver } from "./tasks/webhook__deliver";
import { installationErasure } from "./tasks/installation__erasure";
import { paymentExpire } from "./tasks/payment__expire";
import { billingClosePeriods } from "./tasks/billing__close_periods";
import { mailSend } from "./tasks/mail__send";
import { ordersExport } from "./tasks/orders__export";
import { analyticsMoveProductWindows } from "./tasks/analytics__move_product_windows";
import { startDevMailbox, type DevMailboxServer } from "../app/platform/mail/dev-mailbox.server";
import { DELIVERY_BATCH } from "../app/platform/webhooks/fanout.server";
import { sweepAbandoned } from "../app/platform/webhooks/sweeper.server";
import { startDispatcher, type Dispatcher } from "../app/platform/webhooks/dispatcher.server";
import { startMailDispatcher } from "../app/platform/mail/dispatch.server";
import { closeTransports } from "../app/platform/mail/transport.server";

export type { WorkerDeps };

export const SWEEP_INTERVAL_MS = 10_000;

export function taskList(deps: WorkerDeps): TaskList {
  return {
    maintenance__cleanup: (payload, helpers) => maintenanceCleanup(deps, payload, helpers),
    activity__prune: (payload, helpers) => activityPrune(deps, payload, helpers),
    devtools__prune_logs: (payload, helpers) => devtoolsPruneLogs(deps, payload, helpers),
    event__fanout: (payload) => eventFanout(deps, payload),
    webhook__deliver: (payload) => webhookDeliver(deps, payload),
    installation__erasure: (payload) => installationErasure(deps, payload),
    payment__expire: (payload) => paymentExpire(deps, payload),
    billing__close_periods: (payload) => billingClosePeriods(deps, payload),
    mail__send: (payload) => mailSend(deps, payload),
    orders__export: (payload, helpers) => ordersExport(deps, payload, helpers),
    analytics__move_product_windows: (payload, helpers) => analyticsMoveProductWindows(deps, payload, helpers),
  };
}

/** `mailbox`: the embedded development SMTP server, when this worker runs one (MAIL_URL unset outside production). */
export type Worker = {
  runner: Runner;
  dispatcher: Dispatcher;
  mailbox: DevMailboxServer | null;
  stop(): Promise<void>;
};

export async function startWorker(options: { url: string; deps: WorkerDeps; concurrency?: number }): Promise<Worker> {
  // no MAIL_URL outside production: messages go over SMTP to the development mailbox (decision 065)
  const mailbox =
    !options.deps.env.mailUrl && !options.deps.mailUrl && !options.deps.env.isProduction
      ? await startDevMailbox(options.deps.db)
      : null;
  const deps: WorkerDeps = mailbox ? { ...options.deps, mailUrl: mailbox.url } : options.deps;
  // graphile-worker's pool is ours, so that an idle connection the server ends (a restart, a
  // dropped database) is logged instead of an unhandled 'error' event that ends the process
  // (several hosts in the URL: each new connection goes to the current primary, db/primary.ts)
  const concurrency = options.concurrency ?? options.deps.env.workerConcurrency;
  const mailConcurrency = options.deps.env.mailConcurrency;
  // each runner: a connection a job it runs, one for its LISTEN, one to spare
  const pool = pgPool(options.url, {
    max: concurrency + 2 + mailConcurrency + 2,
    // as the web's pool (db/client.ts): fail fast, heal, keep-alive (issue 25)
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 300_000,
    maxLifetimeSeconds: 30 * 60,
    keepAlive: true,
  });
  handlePoolErrors(pool, (e, idle) =>
    console.error(`[worker] ${idle ? "idle " : ""}database connection lost:`, e.message),
  );
  // messages go in a lane of their own, a few at a time (decision 087): a sale's e-mails (two an
  // order) wait their turn instead of taking the event loop from the orders and their webhooks
  const { mail__send, ...otherTasks } = taskList(deps);
  const common = {
    pgPool: pool,
    noHandleSignals: true,
    pollInterval: 1000,
    logger: quietLogger,
    // completions and failures go through graphile-worker's batcher (a batch a tick, 20 retries with
    // backoff), which stop() waits for: unbatched, a job's completion is not awaited by the runner, so
    // a stop while completions still wait for a pool connection ended the pool under them and the
    // completion failed (an unhandled rejection, the job locked for 4 h) — seen in B2e, whose sale
    // leaves hundreds of e-mails sending when a run stops
    preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
  };
  const mailRunner = await run({ ...common, concurrency: mailConcurrency, taskList: { mail__send } });
  const runner = await run({
    ...common,
    concurrency,
    taskList: otherTasks,
    crontab:
      "17 * * * * maintenance__cleanup\n* * * * * billing__close_periods\n41 3 * * * activity__prune\n23 * * * * devtools__prune_logs\n3 * * * * analytics__move_product_windows",
  });
  // attempts abandoned by a dead worker go back to the queue within seconds, not hours
  const sweeper = setInterval(() => {
    sweepAbandoned(options.deps.db, options.deps.env.workerStrandedAfterMs).catch((e) =>
      console.error("[worker] sweep failed:", (e as Error).message),
    );
  }, SWEEP_INTERVAL_MS);
  sweeper.unref();
  // first attempts of deliveries, straight from the deliveries table (decision 019)
  const dispatcher = await startDispatcher(options.deps.db, options.deps.env, {
    maxInFlight: concurrency * DELIVERY_BATCH,
  });
  // jobs for the messages the checkout wrote waiting (decision 087)
  const mailDispatcher = await startMailDispatcher(options.deps.db);
  return {
    runner,
    dispatcher,
    mailbox,
    async stop() {
      clearInterval(sweeper);
      await Promise.all([dispatcher.stop(), mailDispatcher.stop(), runner.stop(), mailRunner.stop()]);
      // the pooled SMTP connections (transport.server.ts) end with the worker
      closeTransports();
      await mailbox?.stop();
      await pool.end();
    },
  };
}
