/**
 * The dispatcher: first attempts of deliveries straight from the deliveries table (a transactional
 * outbox and its relay), without a job per attempt (decision 019).
 *
 * The transaction that writes deliveries also sends `NOTIFY webhook_deliveries` (fanout.server.ts;
 * the checkout's order statement wakes them right after it commits instead, see wakeDispatchers);
 * every worker process LISTENs and, when woken (or once a second, for anything a lost notification
 * left behind), claims waiting first attempts with FOR UPDATE SKIP LOCKED (several workers share the
 * queue, none sends a delivery another holds), joined with what sending needs of the registration,
 * and sends them at once. Results are recorded in batches: while one record statement runs, the next
 * results gather. Claims work the same way, so under load each claim and each record statement
 * covers many deliveries, and at rest a delivery is sent one round trip after its commit.
 *
 * Retries come from the table too, by their due time (next_attempt_at), under the same cap per
 * registration and at most half of the process's slots (decision 024): a failing or timing-out
 * endpoint with thousands of retries holds at most DISPATCH_PER_ENDPOINT slots and never delays
 * another app's first attempts or retries. They are looked for once a second (retries wait 30 s
 * and more; a second is nothing to them), and at once again while a claim fills its room.
 * Manual redeliveries stay graphile-worker jobs (delivery.server.ts). A worker that dies holding
 * claimed deliveries leaves them in flight; the sweeper clears them after WORKER_STRANDED_AFTER_MS
 * and the next claim takes them again.
 */
import type { Database } from "../../../db/client";
import type { WebhookDelivery } from "../../../db/schema";
import { rawQuery, readColumns, selectColumns } from "../../../db/sql";
import { webhookDeliveries } from "../../../db/schema";
import type { Env } from "../core/env.server";
import { now } from "../core/clock.server";
import { decrypt } from "../core/crypto.server";
import { DELIVERIES_CHANNEL, onLocalWake } from "./fanout.server";
import { MANDATORY_EVENTS } from "../shapes/app-catalog";
import { recordResults } from "./attempt-record.server";
import { sendOne } from "./delivery.server";
import { type AttemptResult, type ClaimedDelivery, type DeliveryTarget } from "./delivery-rules.server";

/** Deliveries one process holds claimed and unrecorded at once (the worker passes WORKER_CONCURRENCY x DELIVERY_BATCH). */
export const DISPATCH_MAX_IN_FLIGHT = 100;
/**
 * First attempts one process sends to one registration (endpoint) at once: a slow endpoint holds at
 * most a quarter of the default 100 slots, and a fast one still gets its deliveries out at full speed.
 */
export const DISPATCH_PER_ENDPOINT = 25;
/** How often a dispatcher looks without being woken. */
export const DISPATCH_POLL_MS = 1000;

/**
 * The claim of deliveries waiting to be sent, `order` first, at most `room` of each registration:
 * $1 now, $2 the most to claim, $3 the registrations this process has deliveries in flight to, $4
 * how many more of each it may take (others: $5). One slow or dead endpoint so holds at most
 * DISPATCH_PER_ENDPOINT of a process's slots and never delays the deliveries of another, however
 * long its backlog (issue 25): the registrations with waiting deliveries are listed from the partial
 * index by a skip (one probe each), and the first few of each taken. The candidates are read
 * without locks; the update claims those no other dispatcher claimed meanwhile (its row lock and
 * the state check). Claimed with their registration (left join: a removed one drops the delivery).
 */
function claimSql(waiting: string, order: "created_at" | "next_attempt_at", due: string) {
  return `
  with recursive hooks(webhook_id) as (
    (select webhook_id from webhook_deliveries where ${waiting} order by webhook_id limit 1)
    union all
    select (select d.webhook_id from webhook_deliveries d where d.${waiting} and d.webhook_id > h.webhook_id order by d.webhook_id limit 1)
    from hooks h where h.webhook_id is not null),
  rooms as (
    select h.webhook_id, coalesce(busy.room, $5) as room
    from hooks h left join unnest($3::text[], $4::int[]) as busy(webhook_id, room) on busy.webhook_id = h.webhook_id
    where h.webhook_id is not null),
  c as (
    select x.id from rooms r cross join lateral (
      select d.id, d.${order} from webhook_deliveries d where d.webhook_id = r.webhook_id and d.${waiting}${due}
      order by d.${order} limit r.room) x
    order by x.${order} limit $2),
  u as (
    update webhook_deliveries d set in_flight_since = $1 from c
    where d.id = c.id and d.${waiting}${due}
    returning ${selectColumns(webhookDeliveries, "d")})
  select u.*, w.id as wid, w.url, w.secret_enc, w.is_active, w.consecutive_failures
  from u left join webhooks w on w.id = u."d.webhookId"`;
}

/** First attempts, oldest first. */
const CLAIM_SQL = claimSql(`status = 'PENDING' and attempts = 0 and in_flight_since is null`, "created_at", "");
/** Due retries, soonest due first (the registrations with waiting retries are listed due or not). */
const RETRY_CLAIM_SQL = claimSql(
  `status in ('PENDING', 'RETRYING') and attempts > 0 and in_flight_since is null`,
  "next_attempt_at",
  " and d.next_attempt_at <= $1::timestamptz",
);

type ClaimRow = Record<string, unknown> & {
  wid: string | null;
  url: string;
  secret_enc: string;
  is_active: boolean;
  consecutive_failures: number;
};

async function claim(
  db: Database,
  statement: string,
  limit: number,
  busy: Map<string, number>,
  perEndpoint: number,
): Promise<ClaimedDelivery[]> {
  const ids = [...busy.keys()];
  const rows = await rawQuery<ClaimRow>(db, statement, [
    now().toISOString(),
    limit,
    ids,
    ids.map((id) => Math.max(0, perEndpoint - busy.get(id)!)),
    perEndpoint,
  ]);
  return rows.map((row) => ({
    delivery: readColumns(webhookDeliveries, "d", row) as WebhookDelivery,
    webhook: row.wid
      ? {
          id: row.wid,
          url: row.url,
          secretEnc: row.secret_enc,
          isActive: row.is_active,
          consecutiveFailures: row.consecutive_failures,
        }
      : null,
  }));
}

/** A claimer of the deliveries `text` selects (a claimSql statement). */
const claimerOf =
  (text: string) =>
  (
    db: Database,
    limit: number,
    busy: Map<string, number> = new Map(),
    perEndpoint = DISPATCH_PER_ENDPOINT,
  ): Promise<ClaimedDelivery[]> =>
    claim(db, text, limit, busy, perEndpoint);

/** `busy`: deliveries in flight per registration in this process; `perEndpoint`: the most one registration may hold. */
export const claimFirstAttempts = claimerOf(CLAIM_SQL);

/**
 * Retries one process sends at once, as a share of its slots: first attempts always keep the rest.
 * One registration's retries take at most half of that share (and never more than its cap).
 */
export const DISPATCH_RETRY_SHARE = 0.5;

/** Due retries, as claimFirstAttempts claims first attempts (the same per-registration room). */
export const claimRetries = claimerOf(RETRY_CLAIM_SQL);

export type Dispatcher = { wake(): void; stop(): Promise<void>; readonly inFlight: number };

export async function startDispatcher(
  db: Database,
  env: Env,
  options: { maxInFlight?: number; perEndpoint?: number; pollMs?: number; listen?: boolean } = {},
): Promise<Dispatcher> {
  const maxInFlight = options.maxInFlight ?? DISPATCH_MAX_IN_FLIGHT;
  const perEndpoint = Math.min(options.perEndpoint ?? DISPATCH_PER_ENDPOINT, maxInFlight);
  const maxRetries = Math.max(1, Math.floor(maxInFlight * DISPATCH_RETRY_SHARE));
  // one endpoint's retries take at most half the retries' share: another app's retries always find room
  const perEndpointRetries = Math.max(1, Math.min(perEndpoint, Math.floor(maxRetries / 2)));
  let stopped = false;
  let inFlight = 0;
  /** retries sent and not yet recorded (their share of the slots) */
  let retriesInFlight = 0;
  /** deliveries per registration sent and not yet answered */
  const busy = new Map<string, number>();
  /** the last claim filled every free slot: more may be waiting */
  let full = false;
  const sends = new Set<Promise<void>>();
  const done: AttemptResult[] = [];
  let recording: Promise<void> | null = null;
  const secrets = new Map<string, string>();
  const secretOf = (w: DeliveryTarget) => {
    let secret = secrets.get(w.secretEnc);
    if (secret === undefined) {
      if (secrets.size >= 1000) secrets.clear();
      secrets.set(w.secretEnc, (secret = decrypt(w.secretEnc, env.encryptionKey)));
    }
    return secret;
  };

  const fail = (what: string) => (e: unknown) => console.error(`[dispatcher] ${what} failed:`, (e as Error).message);

  /**
   * Records what has been sent, one statement batch at a time (the next gathers meanwhile). A
   * delivery keeps its slot until its attempt is recorded, so a process never holds more than
   * maxInFlight deliveries claimed but unrecorded: what a kill can make it send twice.
   */
  const record = () => {
    if (recording || done.length === 0) return;
    recording = (async () => {
      while (done.length) {
        const batch = done.splice(0);
        await recordResults(db, batch, false).catch(fail("recording"));
        inFlight -= batch.length;
        const retries = batch.filter((r) => r.delivery.attempts > 0).length;
        retriesInFlight -= retries;
        // a full claim may have left more waiting: look again now that there is room
        if (full) wake();
        if (retries && retriesFull) wakeRetries();
      }
    })().finally(() => {
      recording = null;
      record();
    });
  };

  const send = (c: ClaimedDelivery) => {
    inFlight++;
    busy.set(c.delivery.webhookId, (busy.get(c.delivery.webhookId) ?? 0) + 1);
    const active = !!c.webhook && (c.webhook.isActive || MANDATORY_EVENTS.includes(c.delivery.event));
    const p: Promise<void> = (
      active ? sendOne(db, env, c.delivery, c.webhook!, secretOf(c.webhook!)) : Promise.resolve(null)
    )
      .catch((e: Error) => ({ ok: false, statusCode: null, durationMs: 0, error: e.message }))
      .then((result) => {
        done.push({ ...c, result });
        sends.delete(p);
        // the endpoint has answered: its slot is free again (the process's slot waits for the record)
        const n = busy.get(c.delivery.webhookId)! - 1;
        if (n > 0) busy.set(c.delivery.webhookId, n);
        else busy.delete(c.delivery.webhookId);
        // an endpoint held at its cap is looked at again once half its slots are free (claims in batches)
        if (n === Math.floor(perEndpoint / 2)) {
          wake();
          wakeRetries();
        }
        record();
      });
    sends.add(p);
  };

  /** One claim statement at a time: each sees the slots the other took (per registration and in all). */
  let lock: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const p = lock.then(fn);
    lock = p.catch(() => {});
    return p;
  };
  /**
   * Runs `claimOnce` while wake-ups ask for it (those that come meanwhile coalesce) and while it
   * says it filled its room (more may be waiting); one claim statement at a time (`exclusive`).
   */
  const claimLoop = (what: string, claimOnce: () => Promise<boolean>) => {
    let wanted = false;
    const loop = {
      running: null as Promise<void> | null,
      wake() {
        if (stopped) return;
        wanted = true;
        if (loop.running) return;
        loop.running = (async () => {
          while (wanted && !stopped) {
            wanted = false;
            if (await exclusive(claimOnce)) wanted = true;
          }
        })()
          .catch(fail(what))
          .finally(() => {
            loop.running = null;
            if (wanted) loop.wake();
          });
      },
    };
    return loop;
  };

  /** the last retry claim filled its room: more may be due */
  let retriesFull = false;
  /** Claims due retries within their share of the slots. */
  const retryClaims = claimLoop("claiming retries", async () => {
    const room = Math.min(maxInFlight - inFlight, maxRetries - retriesInFlight);
    if (room <= 0) return ((retriesFull = true), false);
    const claimed = await claimRetries(db, room, busy, perEndpointRetries);
    retriesInFlight += claimed.length;
    for (const c of claimed) send(c);
    return (retriesFull = claimed.length === room);
  });
  const wakeRetries = () => retryClaims.wake();

  /** Claims as many waiting first attempts as there is room for. */
  const firstClaims = claimLoop("claiming", async () => {
    const room = maxInFlight - inFlight;
    if (room <= 0) return ((full = true), false);
    const claimed = await claimFirstAttempts(db, room, busy, perEndpoint);
    for (const c of claimed) send(c);
    // more may be waiting: the claim filled the room (look again now, and when records free
    // slots); an endpoint held at its cap is looked at again when one of its calls is answered
    return (full = claimed.length === room);
  });
  const wake = () => firstClaims.wake();

  const listener =
    options.listen === false
      ? null
      : await db.$client.listen(
          DELIVERIES_CHANNEL,
          () => wake(),
          () => wake(),
        );
  const offLocal = onLocalWake(wake);
  const timer = setInterval(() => {
    wake();
    wakeRetries();
  }, options.pollMs ?? DISPATCH_POLL_MS);
  timer.unref();
  wake();
  wakeRetries();

  return {
    wake,
    get inFlight() {
      return inFlight;
    },
    /** Stops claiming, lets the deliveries in flight finish (each within its 10 s deadline) and records them. */
    async stop() {
      stopped = true;
      offLocal();
      clearInterval(timer);
      await listener?.unlisten().catch(() => {});
      await firstClaims.running;
      await retryClaims.running;
      await Promise.all([...sends]);
      while (recording || done.length) {
        record();
        await recording;
      }
    },
  };
}
