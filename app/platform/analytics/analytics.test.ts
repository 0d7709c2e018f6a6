import { describe, expect, it, afterEach } from "vitest";
import { sql } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { startReceiver } from "../testing/receiver";
import { appBody } from "../apps/apps.test-helpers";
import { setClockOffset } from "../core/clock.server";
import { createInstallation, uninstall } from "../installs/installs.server";
import { emitEvent } from "../events/emit.server";
import { orderCreatedEvent } from "../orders/events.server";
import { attemptDelivery, fanOut } from "../webhooks/delivery.server";
import { last30Days } from "./analytics.server";
import { apps, installations } from "../../../db/schema";
import { eq } from "drizzle-orm";

const p = await startPlatform();
const DAY = 24 * 3600 * 1000;
afterEach(() => setClockOffset(0));

describe("developer analytics", () => {
  it("answers 30 zero-filled UTC days for a new app, and 404 for another developer", async () => {
    const dev = await p.register("DEVELOPER");
    const app = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody() });
    const res = await p.request("GET", `/developer/apps/${app.json.id}/analytics`, { token: dev.token });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      totalInstalls: 0,
      activeInstalls: 0,
      webhookSuccessRate: null,
      avgWebhookLatencyMs: null,
    });
    expect(res.json.installTrend).toHaveLength(30);
    expect(res.json.webhookDeliveries).toHaveLength(30);
    expect(res.json.installTrend.at(-1).date).toBe(new Date().toISOString().slice(0, 10));
    expect(res.json.installTrend.every((d: any) => d.installs === 0 && d.uninstalls === 0)).toBe(true);
    const dates = res.json.webhookDeliveries.map((d: any) => d.date);
    expect(dates).toEqual([...dates].sort());
    expect(new Date(dates[29]).getTime() - new Date(dates[0]).getTime()).toBe(29 * DAY);
    const other = await p.register("DEVELOPER");
    expect((await p.request("GET", `/developer/apps/${app.json.id}/analytics`, { token: other.token })).status).toBe(
      404,
    );
  });

  it("counts installs, uninstalls and delivery attempts of the last 30 days, leaving out test installs", async () => {
    const dev = await p.register("DEVELOPER");
    // the receiver answers 200 to the orders meant to succeed (ord_ok_…), 500 to the others
    const receiver = await startReceiver((r) => ({
      status: String(r.json?.data?.orderId ?? "").startsWith("ord_ok_") ? 200 : 500,
    }));
    const created = await p.request("POST", "/developer/apps", {
      token: dev.token,
      body: appBody({ scopes: ["read_orders"], webhookUrl: receiver.url, webhookEvents: ["order.created"] }),
    });
    const [app] = await p.db.select().from(apps).where(eq(apps.id, created.json.id));
    const merchants = await Promise.all([1, 2, 3, 4].map(() => p.register("MERCHANT")));

    const at = async <T>(daysAgo: number, fn: () => Promise<T>) => {
      setClockOffset(-daysAgo * DAY);
      try {
        return await fn();
      } finally {
        setClockOffset(0);
      }
    };
    const install = (businessId: string, isTestInstall = false) =>
      p.db.transaction(
        async (tx) =>
          (
            await createInstallation(tx, p.env, {
              app,
              businessId,
              scopes: ["read_orders"],
              isTestInstall,
              installedBy: dev.account.id,
            })
          ).installation,
      );

    const old = await at(35, () => install(merchants[0].businessId));
    const a = await at(20, () => install(merchants[1].businessId));
    const b = await at(5, () => install(merchants[2].businessId));
    await at(0, () => install(merchants[3].businessId));
    const test = await at(3, () => install(dev.businessId, true));
    await at(2, () =>
      p.db.transaction(async (tx) =>
        uninstall(tx, (await tx.select().from(installations).where(eq(installations.id, a.id)))[0]),
      ),
    );
    await at(1, () =>
      p.db.transaction(async (tx) =>
        uninstall(tx, (await tx.select().from(installations).where(eq(installations.id, test.id)))[0]),
      ),
    );

    // deliveries: an event on a business, fanned out and attempted at a given day
    const deliver = (daysAgo: number, businessId: string, ok: boolean) =>
      at(daysAgo, async () => {
        const event = await p.db.transaction((tx) =>
          emitEvent(
            tx,
            orderCreatedEvent({
              id: `ord_${ok ? "ok" : "failed"}_${daysAgo}`,
              businessId,
              orderNumber: String(daysAgo),
              amount: 1000,
              deliveryFee: 300,
              currency: "USD",
              deliveryMethod: "DELIVERY",
              paymentMethod: "CASH",
              isGuest: true,
              createdAt: new Date(),
            }),
          ),
        );
        await fanOut(p.db, event.id);
        const rows = await p.db.execute<{ id: string }>(
          sql`select id from webhook_deliveries where event_id = ${event.id}`,
        );
        for (const r of rows) await attemptDelivery(p.db, p.env, r.id);
      });
    await deliver(38, merchants[0].businessId, true); // older than 30 days: left out
    await deliver(12, merchants[0].businessId, true);
    await deliver(12, merchants[0].businessId, false);
    await deliver(4, merchants[2].businessId, true);
    await deliver(4, merchants[2].businessId, true);
    await deliver(0, merchants[3].businessId, false);
    // the test install gets no deliveries counted (it is uninstalled by now, so make one while installed)
    await p.db.transaction(async (tx) => {
      const again = await createInstallation(tx, p.env, {
        app,
        businessId: dev.businessId,
        scopes: ["read_orders"],
        isTestInstall: true,
        installedBy: dev.account.id,
      });
      return again;
    });
    await deliver(0, dev.businessId, true);

    const res = await p.request("GET", `/developer/apps/${app.id}/analytics`, { token: dev.token });
    expect(res.status).toBe(200);
    const days = last30Days();
    const iso = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY).toISOString().slice(0, 10);

    // lifetime: 4 production installs (the one 35 days ago included); active: 3
    expect(res.json.totalInstalls).toBe(4);
    expect(res.json.activeInstalls).toBe(3);
    expect(res.json.installTrend.map((d: any) => d.date)).toEqual(days);
    const trend = Object.fromEntries(
      res.json.installTrend
        .filter((d: any) => d.installs || d.uninstalls)
        .map((d: any) => [d.date, [d.installs, d.uninstalls]]),
    );
    expect(trend).toEqual({ [iso(20)]: [1, 0], [iso(5)]: [1, 0], [iso(2)]: [0, 1], [iso(0)]: [1, 0] });

    // attempts within 30 days of production installs: 12 days ago 1 ok + 1 failed, 4 days ago 2 ok, today 1 failed
    const attempts = await p.db.execute<{ success: boolean; status_code: number | null; duration_ms: number }>(sql`
      select success, status_code, duration_ms from webhook_attempts
      where app_id = ${app.id} and not is_test_install and created_at >= ${days[0] + "T00:00:00Z"}::timestamptz`);
    expect(attempts).toHaveLength(5);
    const answered = attempts.filter((x) => x.status_code !== null);
    expect(res.json.webhookSuccessRate).toBe(60);
    expect(res.json.avgWebhookLatencyMs).toBe(
      Math.round((answered.reduce((s, x) => s + x.duration_ms, 0) / answered.length) * 100) / 100,
    );
    const deliveries = Object.fromEntries(
      res.json.webhookDeliveries
        .filter((d: any) => d.succeeded || d.failed)
        .map((d: any) => [d.date, [d.succeeded, d.failed]]),
    );
    expect(deliveries).toEqual({ [iso(12)]: [1, 1], [iso(4)]: [2, 0], [iso(0)]: [0, 1] });
    void old;
    void b;
  });
});
