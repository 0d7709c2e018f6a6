/**
 * Issue 25: one slow app never delays another's webhooks, and one setting says when work left by a
 * dead worker is taken back. Real server, real worker (its dispatcher), real receivers on 127.0.0.1.
 */
import { describe, expect, it } from "vitest";
import { startPlatform } from "../testing/platform";
import { eventually, startReceiver } from "../testing/receiver";
import { appBody } from "../apps/apps.test-helpers";
import { MIN_STALE_IN_FLIGHT_MS } from "./delivery-rules.server";
import { sweepAbandoned } from "./sweeper.server";
import { DISPATCH_PER_ENDPOINT } from "./dispatcher.server";
import { newId } from "../core/ids.server";
import { webhookDeliveries } from "../../../db/schema";

const percentile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((q / 100) * xs.length))];

const p = await startPlatform({ worker: true, env: { APP_API_RATE_LIMIT: "100000" } });

/** An app test-installed on a fresh developer's sandbox, its install registration to `url`. */
async function app(url: string) {
  const dev = await p.register("DEVELOPER");
  const created = await p.request("POST", "/developer/apps", {
    token: dev.token,
    body: appBody({
      scopes: ["read_orders", "write_orders", "read_products"],
      webhookUrl: url,
      webhookEvents: ["order.created"],
    }),
  });
  const inst = await p.request("POST", `/developer/apps/${created.json.id}/test-install`, { token: dev.token });
  const [product] = await p.sql<
    { id: string }[]
  >`select id from products where business_id = ${dev.businessId} and stock is null and is_available and status = 'ACTIVE' limit 1`;
  const order = () =>
    p.request("POST", "/app-api/orders", {
      token: inst.json.accessToken,
      body: {
        customer: { name: "Al", phone: "555 0100" },
        items: [{ productId: product.id, quantity: 1 }],
        deliveryMethod: "PICKUP",
        paymentMethod: "CASH",
      },
    });
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
    const latencies = fast.received
      .filter((r) => acknowledged.has(r.json?.data?.orderId))
      .map((r) => r.at - acknowledged.get(r.json.data.orderId)!);
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

/** Makes an installation's waiting retries due now (the row and, for a design that keeps them, its job): time driven, not waited for. */
async function retriesDueNow(installationId: string) {
  const ids = (
    await p.sql<{ id: string }[]>`
    update webhook_deliveries set next_attempt_at = now() where installation_id = ${installationId} and status = 'RETRYING' and in_flight_since is null returning id`
  ).map((r) => r.id);
  await p.sql`update graphile_worker._private_jobs set run_at = now() where locked_at is null and payload->>'deliveryId' = any(${ids})`;
  return ids.length;
}

describe("retry isolation", () => {
  it("an endpoint timing out on 150 retries does not delay another app's first attempts or retries", async () => {
    // the failing app: its first attempts are refused with a 500, then every retry times out (no answer within 10 s)
    const slow = await startReceiver({ status: 500 });
    const slowApp = await app(`${slow.url}/failing`);
    for (let i = 0; i < 150; i++) expect((await slowApp.order()).status).toBe(201);
    const retrying = async (installationId: string) =>
      (
        await p.sql<
          { n: number }[]
        >`select count(*)::int as n from webhook_deliveries where installation_id = ${installationId} and status = 'RETRYING' and in_flight_since is null`
      )[0].n;
    await eventually(async () => expect(await retrying(slowApp.installationId)).toBe(150), 30_000);
    slow.set({ status: 200, delayMs: 12_000 });
    expect(await retriesDueNow(slowApp.installationId)).toBe(150);
    await eventually(async () => expect(slow.received.length).toBeGreaterThan(150), 10_000);

    // the other app: each delivery's first attempt answered 500, its retry 200
    const seen = new Set<string>();
    const fast = await startReceiver((r) => {
      const id = String(r.headers["x-service-event-id"]);
      if (seen.has(id)) return { status: 200 };
      seen.add(id);
      return { status: 500 };
    });
    const fastApp = await app(`${fast.url}/fine`);
    const acknowledged = new Map<string, number>();
    for (let i = 0; i < 40; i++) {
      const res = await fastApp.order();
      expect(res.status).toBe(201);
      acknowledged.set(res.json.id, Date.now());
    }
    const arrivals = (n: number) => {
      const byOrder = new Map<string, number[]>();
      for (const r of fast.received)
        byOrder.set(r.json?.data?.orderId, [...(byOrder.get(r.json?.data?.orderId) ?? []), r.at]);
      return [...acknowledged.keys()].map((id) => byOrder.get(id)?.[n - 1]).filter((x): x is number => x !== undefined);
    };
    await eventually(async () => expect(arrivals(1)).toHaveLength(40), 30_000);
    const firstLatencies = [...acknowledged].map(
      ([id, at]) => fast.received.find((r) => r.json?.data?.orderId === id)!.at - at,
    );
    await eventually(async () => expect(await retrying(fastApp.installationId)).toBe(40), 10_000);
    const due = Date.now();
    expect(await retriesDueNow(fastApp.installationId)).toBe(40);
    await eventually(async () => expect(arrivals(2)).toHaveLength(40), 60_000);
    const retryLatencies = arrivals(2).map((at) => at - due);
    console.log(
      `[isolation] retries: fast app's first attempts p95 ${percentile(firstLatencies, 95)} ms, retries p95 ${percentile(retryLatencies, 95)} ms (slow endpoint received ${slow.received.length - 150} retries)`,
    );
    // the other app's first attempts and retries keep their normal latency
    expect(percentile(firstLatencies, 95)).toBeLessThan(2_000);
    expect(percentile(retryLatencies, 95)).toBeLessThan(2_000);
    // while the failing endpoint is worked on, at most its cap at a time
    const [{ inFlight }] = await p.sql<{ inFlight: number }[]>`
      select count(*)::int as "inFlight" from webhook_deliveries where installation_id = ${slowApp.installationId} and in_flight_since is not null`;
    expect(inFlight).toBeGreaterThan(0);
    expect(inFlight).toBeLessThanOrEqual(DISPATCH_PER_ENDPOINT);
    await eventually(async () =>
      expect(
        (
          await p.sql<
            { n: number }[]
          >`select count(*)::int as n from webhook_deliveries where installation_id = ${fastApp.installationId} and status = 'SUCCEEDED' and attempts = 2`
        )[0].n,
      ).toBe(40),
    );
    slow.close();
    fast.close();
  }, 120_000);
});

describe("stranded work: one setting", () => {
  it("takes back an attempt left in flight after WORKER_STRANDED_AFTER_MS, never before a live attempt could have ended", async () => {
    const { dev, installationId } = await app("http://127.0.0.1:9/never");
    const [wh] = await p.sql<
      { id: string; app_id: string }[]
    >`select id, app_id from webhooks where installation_id = ${installationId}`;
    const t = Date.now();
    const row = (ageMs: number) => ({
      id: newId("dlv"),
      eventId: newId("evt"),
      event: "order.created",
      webhookId: wh.id,
      installationId,
      appId: wh.app_id,
      businessId: dev.businessId,
      isTestInstall: true,
      body: "{}",
      status: "PENDING" as const,
      attempts: 1,
      inFlightSince: new Date(t - ageMs),
      nextAttemptAt: new Date(t - ageMs),
    });
    // with the setting at 20 s: 25 s in flight is stranded, 18 s is not
    const old = row(25_000);
    const recent = row(18_000);
    // with the setting below what an attempt may take (5 s), an attempt 12 s in flight is still live
    const live = row(12_000);
    await p.db.insert(webhookDeliveries).values([old, recent, live]);
    const inFlight = async (id: string) => {
      const [{ f }] = await p.sql<
        { f: string | null }[]
      >`select in_flight_since as f from webhook_deliveries where id = ${id}`;
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
    const state = async (id: string) =>
      (
        await p.sql<
          { attempts: number; status: string }[]
        >`select attempts, status from webhook_deliveries where id = ${id}`
      )[0];
    await eventually(async () => {
      expect(await state(old.id)).toEqual({ attempts: 2, status: "RETRYING" });
      expect(await state(recent.id)).toEqual({ attempts: 2, status: "RETRYING" });
    }, 20_000);
    expect(await state(live.id)).toEqual({ attempts: 1, status: "PENDING" });
    expect(await inFlight(live.id)).toEqual(live.inFlightSince.getTime());
  });
});
