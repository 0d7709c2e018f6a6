/**
 * Every LISTEN behind a pooler in transaction mode (issue 39, decision 053). In the topology the web
 * processes reach PostgreSQL through PgBouncer in transaction mode (DATABASE_URL), which hands the
 * LISTEN's server connection back to its pool as soon as the statement ends: the notifications
 * that arrive on it later reach no one. The developer relay (`storefront-apps listen`, app_relay)
 * then found its calls only at the next heartbeat (5 s), and a dispatcher (webhook_deliveries)
 * only at its next poll. Every LISTEN now holds a session of its own on DATABASE_DIRECT_URL.
 *
 * A real PgBouncer 1.18 (Debian's, installed when missing as the topology does) in transaction mode
 * in front of this file's database; the process under test opens its database the way
 * `npm run web` does (openDatabase) with DATABASE_URL on the pooler and DATABASE_DIRECT_URL on
 * PostgreSQL, and the notifications come from another connection, as from another process.
 */
import { afterAll, describe, expect, it } from "vitest";
import { spawn, execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { startPlatform } from "../../app/platform/testing/platform";
import { eventually, startReceiver } from "../../app/platform/testing/receiver";
import { appBody } from "../../app/platform/apps/apps.test-helpers";
import { openDatabase } from "../../app/platform/runtime/database.server";
import { startDispatcher } from "../../app/platform/webhooks/dispatcher.server";
import { emitEvent } from "../../app/platform/events/emit.server";
import { answerCall, openListener, type RelayedCall } from "../../app/platform/devtools/relay.server";
import { HEARTBEAT_MS, relayIfListening } from "../../app/platform/outbound/relay-send.server";
import { ensurePackages } from "./topology";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** PgBouncer in transaction mode in front of `target`'s server (every database of it), as the topology's. */
async function startPgbouncer(target: URL) {
  ensurePackages(["pgbouncer"]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "listen-pooler-"));
  const port = await freePort();
  const user = decodeURIComponent(target.username);
  const users = path.join(dir, "users.txt");
  const ini = path.join(dir, "pgbouncer.ini");
  fs.writeFileSync(users, `"${user}" "${decodeURIComponent(target.password)}"\n`, { mode: 0o600 });
  fs.writeFileSync(
    ini,
    `[databases]
* = host=${target.hostname} port=${target.port}
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = scram-sha-256
auth_file = ${users}
pool_mode = transaction
default_pool_size = 4
server_reset_query =
ignore_startup_parameters = extra_float_digits,options
`,
  );
  // PgBouncer refuses to run as root
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    fs.chmodSync(dir, 0o755);
    execFileSync("chown", ["nobody", users, ini]);
  }
  const child = spawn(
    asRoot ? "runuser" : "/usr/sbin/pgbouncer",
    asRoot ? ["-u", "nobody", "--", "/usr/sbin/pgbouncer", ini] : [ini],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (c) => (stderr += c));
  const deadline = Date.now() + 15_000;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => (socket.end(), resolve(true)));
      socket.on("error", () => resolve(false));
    });
    if (open) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`pgbouncer did not start:\n${stderr}`);
    await sleep(100);
  }
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return {
    url: url.toString(),
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r)));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const p = await startPlatform();
const pgbouncer = await startPgbouncer(new URL(p.dbUrl));
// the process under test, opened as `npm run web` opens it in the topology
const pooled = await openDatabase(
  { ...p.env, databaseUrl: pgbouncer.url, databaseDirectUrl: p.dbUrl, databasePrepare: false },
  { seed: false, log: () => {} },
);
afterAll(async () => {
  await pooled.close();
  await pgbouncer.stop();
});

const dev = await p.register("DEVELOPER");
const receiver = await startReceiver({ status: 200 });
const created = await p.request("POST", "/developer/apps", {
  token: dev.token,
  body: appBody({
    scopes: ["read_orders", "write_orders"],
    webhookUrl: `${receiver.url}/hooks`,
    webhookEvents: ["order.status_changed"],
  }),
});
const appId: string = created.json.id;
const install = await p.request("POST", `/developer/apps/${appId}/test-install`, { token: dev.token });
expect(install.status).toBe(201);

describe("LISTEN with DATABASE_URL on PgBouncer in transaction mode", () => {
  it("the pooler itself loses a LISTEN's notifications (why DATABASE_DIRECT_URL exists)", async () => {
    // a client straight on the pooler, as every LISTEN was before decision 053
    const { createDb } = await import("../../db/client");
    const onPooler = createDb(pgbouncer.url, { max: 1, prepare: false });
    try {
      const heard: string[] = [];
      await onPooler.sql.listen("listen_pooler_probe", (payload) => heard.push(payload));
      await p.db.$client`select pg_notify('listen_pooler_probe', 'lost')`;
      await sleep(1500);
      expect(heard).toEqual([]);
    } finally {
      await onPooler.close();
    }
  });

  it("the developer relay's listener gets a call at once, not at its next heartbeat", async () => {
    const calls: RelayedCall[] = [];
    const close = await openListener(
      pooled.db,
      { id: appId, name: created.json.name },
      dev.account.id,
      (event, data) => {
        if (event !== "call") return;
        const call = data as RelayedCall;
        calls.push(call);
        void answerCall(pooled.db, appId, call.callId, { status: 200, body: "relayed" });
      },
    );
    try {
      // the listener's first look for waiting calls (when it opens) is over: the next is the heartbeat's
      await sleep(300);
      const started = Date.now();
      // the sender (a worker, another process) relays a webhook delivery and waits less than a heartbeat
      const result = await relayIfListening(p.db, {
        appId,
        businessId: dev.businessId,
        isTestInstall: true,
        kind: "webhook",
        path: "/hooks",
        headers: { "Content-Type": "application/json" },
        body: "{}",
        timeoutMs: HEARTBEAT_MS - 2000,
      });
      expect(result).toMatchObject({ ok: true, statusCode: 200, body: "relayed" });
      expect(calls).toHaveLength(1);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await close();
    }
  });

  it("the webhook dispatcher is woken by another process's NOTIFY, not by its poll", async () => {
    // a poll that never comes within the test: only the NOTIFY can wake it
    const dispatcher = await startDispatcher(pooled.db, p.env, { pollMs: 600_000 });
    try {
      await sleep(300);
      const started = Date.now();
      // an order change committed by another process: its delivery and the NOTIFY at commit
      await p.db.transaction((tx) =>
        emitEvent(tx, {
          businessId: dev.businessId,
          type: "order.status_changed",
          data: { orderId: "ord_listen_pooler", orderNumber: "1", previousStatus: "PENDING", status: "CONFIRMED" },
        }),
      );
      await eventually(async () => {
        expect(receiver.received.map((r) => r.json?.data?.orderId)).toContain("ord_listen_pooler");
      }, 5000);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await dispatcher.stop();
    }
  });
});

describe("queries on PgBouncer 1.18 in transaction mode (DATABASE_PREPARE=false)", () => {
  it("a connection sends one query at a time: none waits for ever when many share few connections", async () => {
    // postgres.js pipelines a query behind another on a busy connection; PgBouncer 1.18 ends the
    // transaction at the first one's ReadyForQuery and hands the server on, and the second one's
    // answer is dropped ("got packet from server when not linked"): the client waited for ever, and
    // the failover test's web processes hung after a primary's return. Mixed statements, as a
    // request makes: without parameters (sent whole, pipelined) and with them (described first).
    const { createDb } = await import("../../db/client");
    const onPooler = createDb(pgbouncer.url, { max: 2, prepare: false });
    try {
      const queries = Array.from({ length: 300 }, (_, i) =>
        i % 3 === 0 ? onPooler.sql`select 1 as n` : onPooler.sql`select ${i}::int as n`,
      );
      const outcome = await Promise.race([
        Promise.all(queries).then(() => "answered"),
        sleep(15_000).then(() => "hung"),
      ]);
      expect(outcome).toBe("answered");
    } finally {
      await onPooler.close();
    }
  }, 30_000);
});
