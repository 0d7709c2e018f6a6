/**
 * `storefront-apps listen` (decision 023): while a developer's CLI holds the stream of
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
import { and, eq, gt, inArray, lt } from "drizzle-orm";
import type { Database, Db } from "../../../db/client";
import { accounts, appListeners, businesses, installations, relayCalls } from "../../../db/schema";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";

import { HEARTBEAT_MS, LISTENER_CACHE_MS, LISTENER_STALE_MS, RELAY_CHANNEL } from "../outbound/relay-send.server";
export { isListening } from "../outbound/relay-send.server";

export type RelayedCall = {
  callId: string;
  kind: "webhook" | "hook";
  path: string;
  headers: Record<string, string>;
  body: string;
};

/** Claims the app's waiting calls for one listener (each goes to one listener once). */
export async function claimCalls(db: Db, appId: string): Promise<RelayedCall[]> {
  const rows = await db
    .update(relayCalls)
    .set({ status: "SENT" })
    .where(and(eq(relayCalls.appId, appId), eq(relayCalls.status, "PENDING"), gt(relayCalls.expiresAt, now())))
    .returning();
  return rows.map((r) => ({ callId: r.id, kind: r.kind, path: r.path, headers: r.headers, body: r.body }));
}

/** The listener's answer; false when the call is unknown, of another app, or already over. */
export async function answerCall(
  db: Db,
  appId: string,
  callId: string,
  answer: { status: number; body: string },
): Promise<boolean> {
  const rows = await db
    .update(relayCalls)
    .set({ status: "ANSWERED", answerStatus: answer.status, answerBody: answer.body })
    .where(and(eq(relayCalls.id, callId), eq(relayCalls.appId, appId), inArray(relayCalls.status, ["PENDING", "SENT"])))
    .returning({ id: relayCalls.id });
  return rows.length > 0;
}

/** The app's installation on the listening developer's sandbox, as the stream reports it. */
export type SandboxInstallation = { installationId: string; isTestInstall: boolean } | null;

/** The app's ACTIVE installation on the account's sandbox business (null: none, or the account has no sandbox). */
export async function listenerInstallation(db: Db, appId: string, accountId: string): Promise<SandboxInstallation> {
  const [row] = await db
    .select({ installationId: installations.id, isTestInstall: installations.isTestInstall })
    .from(accounts)
    .innerJoin(businesses, and(eq(businesses.id, accounts.businessId), eq(businesses.isSandbox, true)))
    .innerJoin(
      installations,
      and(
        eq(installations.businessId, businesses.id),
        eq(installations.appId, appId),
        eq(installations.status, "ACTIVE"),
      ),
    )
    .where(eq(accounts.id, accountId))
    .limit(1);
  return row ?? null;
}

/** What the CLI prints when the sandbox's installation changed under a running listen (null: nothing to say). */
export function installationNotice(
  appName: string,
  before: SandboxInstallation,
  after: SandboxInstallation,
): string | null {
  if (before?.installationId === after?.installationId && before?.isTestInstall === after?.isTestInstall) return null;
  if (!after)
    return `${appName} is no longer installed on your sandbox: nothing of your sandbox is relayed until you install it again (storefront-apps test-install). Still listening.`;
  if (before && before.installationId === after.installationId && !after.isTestInstall)
    return `${appName} was approved: the installation on your sandbox (${after.installationId}) is now a production installation, and its token keeps working. Its webhooks and hook calls are still relayed here; merchants' installations are sent to the app's URLs, never here.`;
  return `${appName} is installed on your sandbox (${after.isTestInstall ? "test" : "production"} installation ${after.installationId}): its webhooks and hook calls are relayed here.`;
}

/**
 * Opens a listener for the stream's lifetime: registers it, sends `ready` ({appId, name,
 * installation}), wakes on NOTIFY (and a heartbeat timer as a safety net), and hands every claimed
 * call to `send`. At each heartbeat it also reads the app's installation on the developer's sandbox
 * and sends `installation` ({installation, message}) when it changed (approved, uninstalled,
 * installed again). Returns the close function.
 */
export async function openListener(
  db: Database,
  app: { id: string; name: string },
  accountId: string,
  send: (event: string, data: unknown) => void,
): Promise<() => Promise<void>> {
  const appId = app.id;
  const id = newId("lsn");
  await db.delete(appListeners).where(lt(appListeners.heartbeatAt, new Date(now().getTime() - LISTENER_STALE_MS)));
  await db.insert(appListeners).values({ id, appId, accountId, heartbeatAt: now() });
  // every process's cached "nobody listens" (listenersOf) was read before this row and lapses within
  // LISTENER_CACHE_MS: "ready" (the CLI's "Listening") waits that long, so a call made once the
  // developer sees it is relayed, never sent to the app's URL
  const readyAfter = Date.now() + LISTENER_CACHE_MS;
  let installation = await listenerInstallation(db, appId, accountId);
  let closed = false;
  let pumping = Promise.resolve();
  const pump = () =>
    (pumping = pumping
      .then(async () => {
        if (closed) return;
        for (const call of await claimCalls(db, appId)) send("call", call);
      })
      .catch(() => {}));
  const watch = async () => {
    const after = await listenerInstallation(db, appId, accountId);
    const message = installationNotice(app.name, installation, after);
    installation = after;
    if (message && !closed) send("installation", { installation: after, message });
  };
  const subscription = await db.$client.listen(RELAY_CHANNEL, (payload) => {
    if (payload === appId) void pump();
  });
  const wait = readyAfter - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  send("ready", { appId, name: app.name, installation });
  const timer = setInterval(() => {
    send("ping", { at: now().toISOString() });
    void db
      .update(appListeners)
      .set({ heartbeatAt: now() })
      .where(eq(appListeners.id, id))
      .catch(() => {});
    void watch().catch(() => {});
    void pump();
  }, HEARTBEAT_MS);
  void pump();
  return async () => {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    await subscription.unlisten().catch(() => {});
    await db
      .delete(appListeners)
      .where(eq(appListeners.id, id))
      .catch(() => {});
  };
}
