/**
 * Issue 25: one slow app never delays another's webhooks, and one setting says when work left by a
 * dead worker is taken back. Real server, real worker (its dispatcher), real receivers on 127.0.0.1.
 */
import { describe, expect, it } from "vitest";
import { startPlatform } from "../testing/platform";
import { eventually, startReceiver } from "../testing/receiver";
import { appBody } from "../apps/apps.test-helpers";
import { MIN_STALE_IN_FLIGHT_MS, sweepAbandoned } from "./delivery.server";
import { DISPATCH_PER_ENDPOINT } from "./dispatcher.server";
import { newId } from "../core/ids.server";
import { webhookDeliveries } from "../../../db/schema";

const percentile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((q / 100) * xs.length))];

const p = await startPlatform({ worker: true, env: { APP_API_RATE_LIMIT: "100000" } });

/** An app test-installed on a fresh developer's sandbox, its install registration to `url`. */
async function app(url: string) {
  const dev = await p.register("DEVELOPER");
  const created = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody({ scopes: ["read_orders", "write_orders", "read_products"], webhookUrl: url, webhookEvents: ["order.created"] }) });
  const inst = await p.request("POST", `/developer/apps/${created.json.id}/test-install`, { token: dev.token });
  const [product] = await p.sql<{ id: string }[]>`select id from products where business_id = ${dev.businessId} and stock is null and is_available and status = 'ACTIVE' limit 1`;
  const order = () =>
    p.request("POST", "/app-api/orders", { token: inst.json.accessToken, body: { customer: { name: "Al", phone: "555 0100" }, items: [{ productId: product.id, quantity: 1 }], deliveryMethod: "PICKUP", paymentMethod: "CASH" } });
  return { dev, installationId: inst.json.installationId as string, order };
}

describe("endpoint isolation", () => {
  it("a neighbour answering every delivery after 9 s does not slow another app's webhooks", async () => {
    const slow = await startReceiver({ status: 200, delayMs: 9_000 });
    const fast = await startReceiver({ status: 200 });
    const slowApp = await app(`${slow.url}/slow`);
    const fastApp = await app(`${fast.url}/fast`);
    // orders alternate between the two apps; the slow app's endpoint is saturated from the first ones
    const acknowledged = new Map<string, number>();
    for (let i = 0; i < 120; i++) {
      const which = i % 2 ? fastApp : slowApp;
      const res = await which.order();
      expect(res.status).toBe(201);
      if (which === fastApp) acknowledged.set(res.json.id, Date.now());
    }
    await eventually(async () => {
      expect(fast.received.filter((r) => acknowledged.has(r.json?.data?.orderId)).length).toBe(60);
    }, 30_000);
    const latencies = fast.received.filter((r) => acknowledged.has(r.json?.data?.orderId)).map((r) => r.at - acknowledged.get(r.json.data.orderId)!);
    // the fast app's webhooks keep their normal latency while the slow endpoint is saturated
    expect(percentile(latencies, 95)).toBeLessThan(2_000);
    // and the slow endpoint is being worked on meanwhile, at most its cap at a time
    const [{ inFlight }] = await p.sql<{ inFlight: number }[]>`
      select count(*)::int as "inFlight" from webhook_deliveries where installation_id = ${slowApp.installationId} and in_flight_since is not null`;
    expect(inFlight).toBeGreaterThan(0);
    expect(inFlight).toBeLessThanOrEqual(DISPATCH_PER_ENDPOINT);
    expect(slow.received.length).toBeLessThan(60);
    slow.close();
    fast.close();
  }, 60_000);
});

describe("stranded work: one setting", () => {
  it("takes back an attempt left in flight after WORKER_STRANDED_AFTER_MS, never before a live attempt could have ended", async () => {
    const { dev, installationId } = await app("http://127.0.0.1:9/never");
    const [wh] = await p.sql<{ id: string; app_id: string }[]>`select id, app_id from webhooks where installation_id = ${installationId}`;
    const t = Date.now();
    const row = (ageMs: number) => ({
      id: newId("dlv"), eventId: newId("evt"), event: "order.created", webhookId: wh.id, installationId, appId: wh.app_id, businessId: dev.businessId,
      isTestInstall: true, body: "{}", status: "PENDING" as const, attempts: 1, inFlightSince: new Date(t - ageMs), nextAttemptAt: new Date(t - ageMs),
    });
    // with the setting at 20 s: 25 s in flight is stranded, 18 s is not
    const old = row(25_000);
    const recent = row(18_000);
    // with the setting below what an attempt may take (5 s), an attempt 12 s in flight is still live
    const live = row(12_000);
    await p.db.insert(webhookDeliveries).values([old, recent, live]);
    const inFlight = async (id: string) => {
      const [{ f }] = await p.sql<{ f: string | null }[]>`select in_flight_since as f from webhook_deliveries where id = ${id}`;
      return f === null ? null : new Date(f).getTime();
    };

    await sweepAbandoned(p.db, 20_000);
    // (the old one is taken back; the worker may at once claim it again for its next try: checked below)
    expect(await inFlight(old.id)).not.toEqual(old.inFlightSince.getTime());
    expect(await inFlight(recent.id)).toEqual(recent.inFlightSince.getTime());
    expect(MIN_STALE_IN_FLIGHT_MS).toBe(15_000);
    await sweepAbandoned(p.db, 5_000);
    expect(await inFlight(live.id)).toEqual(live.inFlightSince.getTime());
    expect(await inFlight(recent.id)).not.toEqual(recent.inFlightSince.getTime());
    // each attempt taken back is made again by the worker (its endpoint refuses: the next retry is scheduled)
    const state = async (id: string) => (await p.sql<{ attempts: number; status: string }[]>`select attempts, status from webhook_deliveries where id = ${id}`)[0];
    await eventually(async () => {
      expect(await state(old.id)).toEqual({ attempts: 2, status: "RETRYING" });
      expect(await state(recent.id)).toEqual({ attempts: 2, status: "RETRYING" });
    }, 20_000);
    expect(await state(live.id)).toEqual({ attempts: 1, status: "PENDING" });
    expect(await inFlight(live.id)).toEqual(live.inFlightSince.getTime());
  });
});
