/**
 * The mail dispatcher (decision 087): first attempts of messages that a hot transaction wrote without
 * their job. The checkout's order statement writes the shopper's confirmation and the members'
 * new-order notices as `mail_messages` rows marked waiting (QUEUED, never tried, `next_attempt_at`
 * set), not with a `mail__send` job each: adding a job NOTIFYs, and a transaction that notifies
 * commits behind every other notifying one (one lock held through its commit's flush), which halved
 * a sale's orders a second on one shop (docs/performance.md, session 12). Every other cause of a
 * message (a reset link, an invitation) is rare and still adds its job in its own transaction (the
 * insert trigger of mail_messages, whose WHEN leaves the waiting rows to this dispatcher).
 *
 * Each worker runs one: woken after the order commits (this process's at once; another process's by
 * a coalesced NOTIFY outside the order's transaction: core/wake.server.ts), and once a second for
 * anything a lost wake-up left, it turns a batch of waiting rows into jobs in one statement (rows
 * locked with SKIP LOCKED, so two workers never take the same row; the claim and the jobs commit
 * together, so a crash loses or doubles nothing). From the job on, a message is sent, retried and
 * recorded as any other (outbox.server.ts).
 *
 * Shoppers first (decision 089): while this process's web server is busy (a sale: MAIL_BUSY_RPS
 * requests a second or more, core/load.server.ts), the checkout's messages are let through at
 * MAIL_BUSY_PER_SECOND only, and the rest wait until the rush is over; sending one costs the event
 * loop that answers the checkout about 1.5 ms, two an order. None waits longer than MAIL_MAX_HOLD_MS:
 * past it the backlog goes out at full speed. A worker of its own serves no requests and never holds.
 */
import type { Database, Db } from "../../../db/client";
import { rawQuery } from "../../../db/sql";
import { createWaker } from "../core/wake.server";
import { requestsLastSecond } from "../core/load.server";

export const MAIL_CHANNEL = "mail_messages";
const waker = createWaker(MAIL_CHANNEL);
/** After a commit that wrote waiting messages: wakes the mail dispatchers. */
export const wakeMailDispatchers = (db: Db) => waker.wake(db);

/** Waiting messages turned into jobs by one statement. */
export const MAIL_DISPATCH_BATCH = 500;
export const MAIL_DISPATCH_POLL_MS = 1000;
/** This process's web server is busy from this many requests a second (decision 089). */
export const MAIL_BUSY_RPS = 50;
/** While it is busy, the checkout's messages still go out at this rate, so a long sale's are late, not stuck. */
export const MAIL_BUSY_PER_SECOND = 20;
/** No message is held back longer than this: past it, the backlog is sent at full speed. */
export const MAIL_MAX_HOLD_MS = 60_000;

/** The marker of a waiting row, for the statements that write one (a never-tried QUEUED row with a due time). */
export const WAITING_MAIL = "status = 'QUEUED' and attempts = 0 and next_attempt_at is not null";

// the claimed rows' jobs added by one call of graphile-worker's add_jobs (one NOTIFY, its function
// run once, not once a message), and none at all when nothing was claimed
const DISPATCH_SQL = `
  with due as (
    select id from mail_messages where ${WAITING_MAIL}
    order by next_attempt_at limit $1 for update skip locked),
  taken as (
    update mail_messages m set next_attempt_at = null from due where m.id = due.id returning m.id)
  select case when exists (select from taken) then (
    select count(*)::int from graphile_worker.add_jobs(array(
      select row('mail__send', json_build_object('id', id), null::text, null::timestamptz, 25::smallint,
                 'mail:' || id, null::smallint, null::text[])::graphile_worker.job_spec
      from taken)))
  else 0 end as n`;

/** Turns up to `limit` waiting messages into their jobs; answers how many. */
export async function dispatchWaitingMail(db: Db, limit = MAIL_DISPATCH_BATCH): Promise<number> {
  const [row] = await rawQuery<{ n: number }>(db, DISPATCH_SQL, [limit]);
  return row?.n ?? 0;
}

export type MailDispatcher = { wake(): void; stop(): Promise<void> };

export type MailDispatcherOptions = {
  pollMs?: number;
  listen?: boolean;
  /** Whether the process is busy answering people (default: its web server's requests a second, see above). */
  busy?: () => boolean;
  busyPerSecond?: number;
  maxHoldMs?: number;
};

export async function startMailDispatcher(db: Database, options: MailDispatcherOptions = {}): Promise<MailDispatcher> {
  const busy = options.busy ?? (() => requestsLastSecond() >= MAIL_BUSY_RPS);
  const perSecond = options.busyPerSecond ?? MAIL_BUSY_PER_SECOND;
  const maxHoldMs = options.maxHoldMs ?? MAIL_MAX_HOLD_MS;
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  // while busy: a budget refilled at perSecond (at most a second's worth), and since when messages
  // may have been left waiting
  let budget = perSecond;
  let refilledAt = Date.now();
  let heldSince: number | null = null;
  /** How many waiting messages this dispatch may take: a full batch, or what the busy budget allows. */
  const allowance = (): number => {
    const at = Date.now();
    if (!busy() || (heldSince !== null && at - heldSince > maxHoldMs)) return MAIL_DISPATCH_BATCH;
    budget = Math.min(perSecond, budget + ((at - refilledAt) * perSecond) / 1000);
    refilledAt = at;
    // a second's budget at a time: one claim (and one add_jobs) a second while the rush lasts, not
    // one for each order's wake-up
    return budget >= perSecond ? Math.min(MAIL_DISPATCH_BATCH, Math.floor(budget)) : 0;
  };
  // one statement at a time; a wake-up during it runs one more after it (a full batch: at once)
  const wake = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          const limit = allowance();
          if (limit === 0) {
            // busy and the budget spent: the poll (or the next order) looks again
            heldSince ??= Date.now();
            break;
          }
          const taken = await dispatchWaitingMail(db, limit);
          if (limit < MAIL_DISPATCH_BATCH) {
            budget -= taken;
            // the whole budget taken: more may be waiting behind it
            if (taken === limit) heldSince ??= Date.now();
            else heldSince = null;
          } else if (taken === MAIL_DISPATCH_BATCH) again = true;
          else heldSince = null;
        } catch (e) {
          if (!stopped) console.error("[mail] dispatch failed:", (e as Error).message);
          again = false;
        }
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
  };
  const listener = options.listen === false ? null : await db.$client.listen(MAIL_CHANNEL, wake, wake);
  const offLocal = waker.onLocal(wake);
  const timer = setInterval(wake, options.pollMs ?? MAIL_DISPATCH_POLL_MS);
  timer.unref();
  wake();
  return {
    wake,
    async stop() {
      stopped = true;
      offLocal();
      clearInterval(timer);
      await listener?.unlisten().catch(() => {});
      await running;
    },
  };
}
