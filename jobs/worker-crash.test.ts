/**
 * A worker killed with SIGKILL in the middle of a delivery: after a restart the delivery still
 * arrives, with the same event id.
 */
import { expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { startPlatform } from "../app/platform/testing/platform";
import { eventually, startReceiver } from "../app/platform/testing/receiver";
import { workerProcesses } from "../app/platform/testing/processes";
import { appBody } from "../app/platform/apps/apps.test-helpers";

const p = await startPlatform({ worker: false });
const startWorkerProcess = workerProcesses(p.dbUrl, p.env);

it("re-sends a delivery whose worker died mid-attempt, with the same event id", async () => {
  // the first attempt hangs long enough to kill the worker while it waits
  const receiver = await startReceiver((_r, n) => (n === 1 ? { status: 200, delayMs: 8000 } : { status: 200 }));
  const dev = await p.register("DEVELOPER");
  const app = await p.request("POST", "/developer/apps", {
    token: dev.token,
    body: appBody({
      scopes: ["read_orders", "write_orders"],
      webhookUrl: receiver.url,
      webhookEvents: ["order.status_changed"],
    }),
  });
  const inst = await p.request("POST", `/developer/apps/${app.json.id}/test-install`, { token: dev.token });
  const [order] = await p.db.execute<{ id: string }>(
    sql`select id from orders where business_id = ${dev.businessId} and status = 'PENDING' limit 1`,
  );
  await p.request("PATCH", `/app-api/orders/${order.id}/status`, {
    token: inst.json.accessToken,
    body: { status: "CONFIRMED" },
  });

  const first = startWorkerProcess();
  await receiver.waitFor(1, 30_000);
  first.child.kill("SIGKILL");
  await new Promise((r) => first.child.on("exit", r));
  const [inFlight] = await p.db.execute<{ status: string; in_flight_since: string | null; attempts: number }>(
    sql`select status, in_flight_since, attempts from webhook_deliveries`,
  );
  expect(inFlight).toMatchObject({ status: "PENDING", attempts: 0 });
  expect(inFlight.in_flight_since).not.toBeNull();

  startWorkerProcess();
  await receiver.waitFor(2, 60_000);
  const [a, b] = receiver.received;
  expect(b.headers["x-service-event-id"]).toBe(a.headers["x-service-event-id"]);
  expect(b.raw).toBe(a.raw);
  await eventually(async () => {
    const [row] = await p.db.execute<{ status: string; attempts: number }>(
      sql`select status, attempts from webhook_deliveries`,
    );
    expect(row).toEqual({ status: "SUCCEEDED", attempts: 1 });
  });
}, 120_000);
