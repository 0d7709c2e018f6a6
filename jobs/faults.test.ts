/**
 * Faults: the worker killed during a burst, a receiver that is down, SIGTERM with deliveries in
 * flight, two workers on one database. The ledger must balance every time: nothing lost.
 */
import { describe, expect, it } from "vitest";
import http from "node:http";
import net from "node:net";
import { sql } from "drizzle-orm";
import { startPlatform } from "../app/platform/testing/platform";
import { eventually, startReceiver } from "../app/platform/testing/receiver";
import { ledger } from "../app/platform/testing/ledger";
import { makeDue } from "../app/platform/testing/jobs";
import { workerProcesses } from "../app/platform/testing/processes";
import { appBody } from "../app/platform/apps/apps.test-helpers";
import { emitEvent } from "../app/platform/events/emit.server";
import { DELIVERY_BATCH } from "../app/platform/webhooks/fanout.server";

const p = await startPlatform({ worker: false });
const startWorker = workerProcesses(p.dbUrl, p.env);
const workerProcess = () => startWorker({ WORKER_CONCURRENCY: "8" });

/** An installed app whose registration receives order.status_changed at `url`. */
async function subscriber(url: string) {
  const dev = await p.register("DEVELOPER");
  const app = await p.request("POST", "/developer/apps", {
    token: dev.token,
    body: appBody({ scopes: ["read_orders"], webhookUrl: url, webhookEvents: ["order.status_changed"] }),
  });
  await p.request("POST", `/developer/apps/${app.json.id}/test-install`, { token: dev.token });
  return dev;
}

async function burst(businessId: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 50)
    await p.db.transaction(async (tx) => {
      for (let k = i; k < Math.min(n, i + 50); k++)
        ids.push(
          (
            await emitEvent(tx, {
              businessId,
              type: "order.status_changed",
              data: { orderId: `ord_${k}`, orderNumber: String(k), previousStatus: "PENDING", status: "CONFIRMED" },
            })
          ).id,
        );
    });
  return ids;
}

/** A receiver answering as `behaviour`, an app subscribed to it, and `n` events already emitted for it. */
async function subscribedBurst(behaviour: Parameters<typeof startReceiver>[0], n: number) {
  const receiver = await startReceiver(behaviour);
  const dev = await subscriber(receiver.url);
  return { receiver, dev, events: await burst(dev.businessId, n) };
}

const receivedIds = (r: Awaited<ReturnType<typeof startReceiver>>) =>
  r.received.map((x) => String(x.headers["x-service-event-id"]));

/** The ledger once the receiver has `n` of the events (90 s at the most). */
const ledgerOnceReceived = (events: string[], receiver: Awaited<ReturnType<typeof startReceiver>>, n: number) =>
  eventually(async () => {
    const l = await ledger(p.db, events, receivedIds(receiver));
    expect(l.received).toBe(n);
    return l;
  }, 90_000);

describe("faults", () => {
  it("loses nothing when the worker is killed with SIGKILL during a burst of 500 events", async () => {
    const { receiver, events } = await subscribedBurst({ status: 200, delayMs: 5 }, 500);
    const first = workerProcess();
    await receiver.waitFor(100, 60_000);
    first.child.kill("SIGKILL");
    await first.exited;
    const before = receiver.received.length;
    const second = workerProcess();
    const result = await ledgerOnceReceived(events, receiver, 500);
    expect(result).toMatchObject({ events: 500, deliveries: 500, received: 500, failed: 0, pending: 0, lost: 0 });
    // a delivery the killed worker sent but could not record yet is sent again (same delivery id):
    // at most the ones claimed and not yet recorded: the dispatcher holds at most WORKER_CONCURRENCY x DELIVERY_BATCH
    expect(result.duplicates).toBeLessThanOrEqual(8 * DELIVERY_BATCH);
    console.log(`[faults] SIGKILL during burst: ${before} received before the kill, ledger ${JSON.stringify(result)}`);
    second.child.kill("SIGTERM");
    await second.exited;
  }, 150_000);

  it("delivers on the third attempt when the receiver is down (connection refused) for the first two", async () => {
    // a port with nothing listening yet: the first two attempts are refused at connect
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const free = (probe.address() as net.AddressInfo).port;
        probe.close(() => resolve(free));
      });
    });
    const received: string[] = [];
    const dev = await subscriber(`http://127.0.0.1:${port}/hooks`);
    const events = await burst(dev.businessId, 20);
    const worker = workerProcess();
    const server = http.createServer((req, res) => {
      received.push(String(req.headers["x-service-event-id"]));
      req.resume();
      res.writeHead(200).end();
    });
    try {
      for (const attempt of [1, 2]) {
        await eventually(async () => {
          const [row] = await p.db.execute<{ n: number }>(
            sql`select count(*)::int as n from webhook_deliveries d join platform_events e on e.id = d.event_id where e.business_id = ${dev.businessId} and d.attempts = ${attempt} and d.status = 'RETRYING' and d.last_status_code is null`,
          );
          expect(row.n).toBe(20);
        }, 30_000);
        if (attempt === 2) await new Promise<void>((r) => server.listen(port, "127.0.0.1", () => r()));
        await makeDue(p.db, "webhook__deliver");
      }
      const result = await eventually(async () => {
        const l = await ledger(p.db, events, received);
        expect(l.received).toBe(20);
        return l;
      }, 30_000);
      expect(result).toMatchObject({ received: 20, lost: 0, duplicates: 0, failed: 0 });
      // every delivery succeeded, and none before its third attempt (the first two were refused)
      // (the record follows the receipt by a moment)
      await eventually(async () => {
        const [attempts] = await p.db.execute<{ ok: number; early: number }>(
          sql`select count(*) filter (where d.status = 'SUCCEEDED')::int as ok, count(*) filter (where d.attempts < 3)::int as early from webhook_deliveries d join platform_events e on e.id = d.event_id where e.business_id = ${dev.businessId}`,
        );
        expect(attempts).toEqual({ ok: 20, early: 0 });
      }, 30_000);
      console.log(`[faults] receiver down for two attempts: ${JSON.stringify(result)}`);
    } finally {
      server.close();
      worker.child.kill("SIGTERM");
      expect(await worker.exited).toBe(0);
    }
  }, 90_000);

  it("stops on SIGTERM with deliveries in flight and loses none of them", async () => {
    const { receiver, dev, events } = await subscribedBurst({ status: 200, delayMs: 1500 }, 8);
    const worker = workerProcess();
    await receiver.waitFor(1, 30_000);
    const inFlightAtSignal = receiver.received.length;
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
    const after = await ledger(p.db, events, receivedIds(receiver));
    // every attempt that had started when the signal came finished and was recorded before the exit:
    // nothing is left in flight, and everything the receiver got is SUCCEEDED (never sent twice)
    const states = await p.db.execute<{ id: string; status: string; in_flight: boolean }>(sql`
      select d.id, d.status, d.in_flight_since is not null as in_flight from webhook_deliveries d join platform_events e on e.id = d.event_id where e.business_id = ${dev.businessId}`);
    expect(states.filter((s) => s.in_flight)).toEqual([]);
    const got = new Set(receivedIds(receiver));
    expect(states.filter((s) => got.has(s.id)).every((s) => s.status === "SUCCEEDED")).toBe(true);
    expect(after).toMatchObject({ lost: 0, duplicates: 0 });
    expect(after.received).toBeGreaterThanOrEqual(inFlightAtSignal);
    expect(after.received + after.pending).toBe(8);
    console.log(`[faults] SIGTERM with deliveries in flight: ${JSON.stringify(after)}`);
    // a new worker delivers the rest
    const next = workerProcess();
    await eventually(async () => expect((await ledger(p.db, events, receivedIds(receiver))).received).toBe(8), 30_000);
    next.child.kill("SIGTERM");
    await next.exited;
  }, 90_000);

  it("claims every attempt once with two workers on one database", async () => {
    const { receiver, dev, events } = await subscribedBurst({ status: 200 }, 500);
    const a = workerProcess();
    const b = workerProcess();
    const result = await ledgerOnceReceived(events, receiver, 500);
    expect(result).toMatchObject({ received: 500, lost: 0, duplicates: 0 });
    // every attempt recorded once (the record follows the receipt by a moment)
    const attempts = await eventually(async () => {
      const [row] = await p.db.execute<{ max: number; total: number }>(sql`
        select max(n)::int as max, sum(n)::int as total from (select count(*) as n from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id join platform_events e on e.id = d.event_id where e.business_id = ${dev.businessId} group by a.delivery_id) x`);
      expect(row).toEqual({ max: 1, total: 500 });
      return row;
    }, 30_000);
    console.log(`[faults] two workers: ${JSON.stringify(result)}, attempts ${JSON.stringify(attempts)}`);
    a.child.kill("SIGTERM");
    b.child.kill("SIGTERM");
    await Promise.all([a.exited, b.exited]);
  }, 150_000);
});
