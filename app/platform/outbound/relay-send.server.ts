/**
 * The sending half of `storefront-apps listen` (decision 023; the listening half is devtools/relay.server.ts): while a developer's CLI holds the stream of
 * GET /developer/apps/<id>/listen, the webhook deliveries and hook calls of that app's TEST
 * installations are handed to it instead of being POSTed to the app's URLs. The CLI forwards each
 * to the developer's local server with the same headers and signature and posts the answer back;
 * the sender records it in the delivery and hook logs as usual.
 *
 * The sender (a worker, or the web process for hooks) and the web process holding the stream may
 * be different processes: the call goes through PostgreSQL (a relay_calls row and a NOTIFY on
 * RELAY_CHANNEL); the sender waits for the answer on the row, up to the call's own timeout.
 *
 * What is relayed (decision 054): the app's test installations, and its installation on the sandbox
 * of a developer who listens, whatever its kind: review approval turns the test installation into a
 * production one (contract 3), and the sandbox goes on sending to it. Merchants' installations never.
 */
import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { accounts, appListeners, businesses, relayCalls } from "../../../db/schema";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import type { OutboundResult } from "./outbound.server";

export const RELAY_CHANNEL = "app_relay";
/** A listener whose heartbeat is older than this is gone (its process died without cleaning up). */
export const LISTENER_STALE_MS = 20_000;
export const HEARTBEAT_MS = 5_000;
const POLL_MS = 50;
/** A relayed call no listener has claimed after this long is checked: is a listener still there? */
const UNCLAIMED_CHECK_MS = 250;

export type RelayRequest = {
  appId: string;
  /** the installation's business: its production installation is relayed when it is the sandbox of a listening developer */
  businessId: string;
  isTestInstall: boolean;
  /** whether that business is a sandbox, when the sender knows it (false: never relayed unless a test installation, no query) */
  sandbox?: boolean;
  kind: "webhook" | "hook";
  path: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
};

/** The app's connected listeners: whether there is any, and the sandbox businesses of the developers holding them. */
type Listening = { any: boolean; sandboxes: Set<string> };

/**
 * Who listens for the app, read at most once a second per app and process (a short cache in front
 * of the rows: a sandbox's deliveries in bulk, B2e's for one, do not each cost a query; a `listen`
 * that starts is relayed to within a second).
 */
const listenerCache = new Map<string, { until: number; listening: Promise<Listening> }>();
export const LISTENER_CACHE_MS = 1_000;
function listenersOf(db: Db, appId: string): Promise<Listening> {
  const t = Date.now();
  const cached = listenerCache.get(appId);
  if (cached && cached.until > t) return cached.listening;
  if (listenerCache.size > 10_000) listenerCache.clear();
  const fresh = new Date(now().getTime() - LISTENER_STALE_MS);
  const listening = db
    .select({ sandbox: businesses.id })
    .from(appListeners)
    .leftJoin(accounts, eq(accounts.id, appListeners.accountId))
    .leftJoin(businesses, and(eq(businesses.id, accounts.businessId), eq(businesses.isSandbox, true)))
    .where(and(eq(appListeners.appId, appId), gt(appListeners.heartbeatAt, fresh)))
    .then((rows) => ({
      any: rows.length > 0,
      sandboxes: new Set(rows.flatMap((r) => (r.sandbox ? [r.sandbox] : []))),
    }));
  listenerCache.set(appId, { until: t + LISTENER_CACHE_MS, listening });
  listening.catch(() => listenerCache.delete(appId));
  return listening;
}

/** Whether a call of this installation goes to a listener: a test installation to any, another only from a listener's own sandbox. */
async function relayed(db: Db, request: RelayRequest): Promise<boolean> {
  if (!request.isTestInstall && request.sandbox === false) return false;
  const listening = await listenersOf(db, request.appId);
  return request.isTestInstall ? listening.any : listening.sandboxes.has(request.businessId);
}

/** Whether a `storefront-apps listen` session is connected for the app now (no cache; the portal shows it). */
export async function isListening(db: Db, appId: string): Promise<boolean> {
  const fresh = new Date(now().getTime() - LISTENER_STALE_MS);
  const rows = await db
    .select({ id: appListeners.id })
    .from(appListeners)
    .where(and(eq(appListeners.appId, appId), gt(appListeners.heartbeatAt, fresh)))
    .limit(1);
  return rows.length > 0;
}

/**
 * The one hook point in the senders (delivery.server.ts sendOne and sendTest, hooks/invoke.server.ts):
 * for a TEST installation whose app has a connected listener, or the app's installation on the
 * sandbox of a developer listening to it (a production one once the app is approved), relays the
 * call and returns its result; otherwise null and the sender POSTs as usual. A call costs at most
 * the cached read of the app's listeners (none for a hook call on a shop that is not a sandbox). A
 * call no listener claims while none is connected any more (the CLI stopped within the cache's
 * second) is taken back and also answers null, so it goes to the app's URL at once.
 */
export async function relayIfListening(db: Db, request: RelayRequest): Promise<OutboundResult | null> {
  if (!(await relayed(db, request))) return null;
  const started = Date.now();
  const id = newId("rly");
  await db.insert(relayCalls).values({
    id,
    appId: request.appId,
    kind: request.kind,
    path: request.path,
    headers: request.headers,
    body: request.body,
    expiresAt: new Date(now().getTime() + request.timeoutMs),
  });
  await db.execute(sql`select pg_notify(${RELAY_CHANNEL}, ${request.appId})`);
  const deadline = started + request.timeoutMs;
  let nextCheck = started + UNCLAIMED_CHECK_MS;
  try {
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, POLL_MS));
      const [row] = await db
        .select({ status: relayCalls.status, answerStatus: relayCalls.answerStatus, answerBody: relayCalls.answerBody })
        .from(relayCalls)
        .where(eq(relayCalls.id, id));
      if (row?.status === "PENDING" && Date.now() >= nextCheck) {
        // not claimed yet: if the listener is gone (the CLI stopped within the cache's second), take the call back and send it as usual
        nextCheck = Date.now() + 1_000;
        if (!(await isListening(db, request.appId))) {
          const taken = await db
            .delete(relayCalls)
            .where(and(eq(relayCalls.id, id), eq(relayCalls.status, "PENDING")))
            .returning({ id: relayCalls.id });
          if (taken.length) {
            listenerCache.delete(request.appId);
            return null;
          }
        }
      }
      if (row?.status === "ANSWERED") {
        const status = row.answerStatus ?? 0;
        const body = row.answerBody ?? "";
        const ok = status >= 200 && status < 300;
        return {
          ok,
          statusCode: status || null,
          durationMs: Date.now() - started,
          body,
          bodyExcerpt: body.slice(0, 500),
          error: ok
            ? undefined
            : status
              ? `relayed: local server answered ${status}`
              : "relayed: the local server could not be reached",
        };
      }
    }
    return {
      ok: false,
      statusCode: null,
      durationMs: Date.now() - started,
      error: `relayed: no answer from the listener within ${request.timeoutMs} ms`,
    };
  } finally {
    await db.delete(relayCalls).where(eq(relayCalls.id, id));
  }
}
