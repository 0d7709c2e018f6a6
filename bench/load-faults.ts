/**
 * Load (bench, not CI): 10,000 events to 50 registrations with a receiver that fails 20% of the
 * time at random. Retries are driven through the job table (no waiting for the schedule); the
 * ledger must balance: every delivery received, FAILED, or pending — nothing lost.
 */
import http from "node:http";
import { listenLocally } from "../app/platform/testing/listen";
import { sql } from "drizzle-orm";
import { startBench, developer, table, writeResult, runIfMain } from "./lib";
import { testInstallToken } from "./fixtures";
import { emitEvent } from "../app/platform/events/emit.server";
import { statusMoveEvents } from "../app/platform/orders/events.server";
import { ledger } from "../app/platform/testing/ledger";
import { createRegistration } from "../app/platform/webhooks/registrations.server";
import { authenticateInstallation } from "../app/platform/installs/installs.server";

const EVENTS = Number(process.env.BENCH_LOAD_EVENTS ?? 200);
const REGISTRATIONS = 50;

export async function run() {
  const b = await startBench({ worker: true, workerConcurrency: 20 });
  try {
    const received: string[] = [];
    let answered = 0;
    let refused = 0;
    const receiver = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        answered++;
        if (Math.random() < 0.2) {
          refused++;
          res.writeHead(500).end();
        } else {
          received.push(String(req.headers["x-service-event-id"]));
          res.writeHead(200).end();
        }
      });
    });
    receiver.keepAliveTimeout = 60_000;
    const url = `${await listenLocally(receiver)}/hooks`;
    const dev = await developer(b);
    const { token } = await testInstallToken(b, dev, ["read_orders"]);
    const caller = await authenticateInstallation(b.db.db, `Bearer ${token}`);
    // receivers on 127.0.0.1 speak http: register them as a development setup would
    for (let i = 0; i < REGISTRATIONS; i++)
      await createRegistration(b.db.db, { ...b.env, isProduction: false }, caller, {
        url: `${url}?r=${i}`,
        events: ["order.status_changed"],
      });
    // 200 events x 50 registrations = 10,000 deliveries
    const events: string[] = [];
    const started = Date.now();
    for (let i = 0; i < EVENTS; i += 50)
      await b.db.db.transaction(async (tx) => {
        for (let k = i; k < Math.min(EVENTS, i + 50); k++)
          events.push(
            (
              await emitEvent(
                tx,
                statusMoveEvents(
                  { businessId: dev.business.id, id: `ord_${k}`, orderNumber: String(k) },
                  "PENDING",
                  "CONFIRMED",
                )[0],
              )
            ).id,
          );
      });
    // drive the retry schedule through the job table until every delivery has ended
    for (;;) {
      await b.db.db.execute(
        sql`update webhook_deliveries set next_attempt_at = now() where status = 'RETRYING' and in_flight_since is null and next_attempt_at > now()`,
      );
      const [{ open }] = await b.db.db.execute<{ open: number }>(
        sql`select count(*)::int as open from webhook_deliveries where status in ('PENDING','RETRYING')`,
      );
      const [{ unfanned }] = await b.db.db.execute<{ unfanned: number }>(
        sql`select count(*)::int as unfanned from platform_events where fanned_out_at is null`,
      );
      if (open === 0 && unfanned === 0) break;
      if (Date.now() - started > 600_000) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const l = await ledger(b.db.db, events, received);
    const row = {
      events: EVENTS,
      registrations: REGISTRATIONS,
      deliveries: l.deliveries,
      delivered: l.received,
      failed: l.failed,
      pending: l.pending,
      lost: l.lost,
      duplicates: l.duplicates,
      "answers 500 (20%)": refused,
      attempts: answered,
      seconds: Math.round((Date.now() - started) / 100) / 10,
    };
    table("Load: 10,000 deliveries, receiver failing 20% at random", [row]);
    writeResult("load-faults", row);
    receiver.close();
    if (l.lost !== 0 || l.pending !== 0) throw new Error(`ledger does not balance: ${JSON.stringify(l)}`);
    return row;
  } finally {
    await b.close();
  }
}

runIfMain(import.meta.url, run);
