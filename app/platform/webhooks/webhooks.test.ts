import { describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import { sql } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { eventually, startReceiver } from "../testing/receiver";
import { makeDue, jobsOf } from "../testing/jobs";
import { appBody } from "../apps/apps.test-helpers";
import { verifyWebhook } from "../outbound/verify";
import { attemptDelivery } from "./delivery.server";
import { RETRY_DELAYS_MS } from "./delivery-rules.server";
import { emitEvent } from "../events/emit.server";

const p = await startPlatform({ worker: true });
const dev = await p.register("DEVELOPER");

type Install = { token: string; secret: string; appId: string; installationId: string; webhookId: string };

type Dev = Awaited<ReturnType<typeof p.register>>;
let current: Dev = dev;

/** Installs a fresh app on a fresh developer's sandbox (each has 30 demo orders to move). */
async function install(
  receiverUrl: string,
  scopes = ["read_orders", "write_orders", "read_products"],
  events = ["order.created", "order.status_changed"],
  developer?: Dev,
): Promise<Install> {
  developer ??= current = await p.register("DEVELOPER");
  const app = await p.request("POST", "/developer/apps", {
    token: developer.token,
    // deliveries as contract section 7 describes them: API version 2026-11-21 (versions/ tests the later ones)
    body: appBody({ scopes, webhookUrl: receiverUrl + "/hooks", webhookEvents: events, apiVersion: "2026-11-21" }),
  });
  const inst = await p.request("POST", `/developer/apps/${app.json.id}/test-install`, { token: developer.token });
  const list = await p.request("GET", "/webhooks", { token: inst.json.accessToken });
  return {
    token: inst.json.accessToken,
    secret: inst.json.webhookSecret,
    appId: app.json.id,
    installationId: inst.json.installationId,
    webhookId: list.json.data[0].id,
  };
}

/** A receiver answering as `behaviour` and a fresh app installed with its webhook URL. */
async function receiverAndApp(behaviour: Parameters<typeof startReceiver>[0]) {
  const receiver = await startReceiver(behaviour);
  return { receiver, app: await install(receiver.url) };
}

/** A guest order: order.created, as often as a test needs. */
async function placeOrder(app: Install) {
  const [prod] = await p.db.execute<{ id: string }>(
    sql`select id from products where business_id = ${current.businessId} and stock is null and is_available limit 1`,
  );
  const res = await p.request("POST", "/app-api/orders", {
    token: app.token,
    body: {
      customer: { name: "Al", phone: "555" },
      items: [{ productId: prod.id, quantity: 1 }],
      deliveryMethod: "PICKUP",
      paymentMethod: "CARD",
    },
  });
  expect(res.status).toBe(201);
  return res.json;
}

async function pendingOrder(businessId: string) {
  const [o] = await p.db.execute<{ id: string }>(
    sql`select id from orders where business_id = ${businessId} and status = 'PENDING' order by created_at desc limit 1`,
  );
  return o.id;
}

async function deliveriesOf(webhookId: string) {
  const rows = await p.db.execute<{
    id: string;
    status: string;
    attempts: number;
    next_attempt_at: string | null;
    body: string;
    event: string;
  }>(
    sql`select id, status, attempts, next_attempt_at, body, event from webhook_deliveries where webhook_id = ${webhookId} order by created_at`,
  );
  return rows.map((r) => ({ ...r, next_attempt_at: r.next_attempt_at ? new Date(r.next_attempt_at) : null }));
}

/** Moves the developer's newest PENDING order to `status` through the App API (an order.status_changed). */
async function movePendingOrder(token: string, status: string) {
  await p.request("PATCH", `/app-api/orders/${await pendingOrder(current.businessId)}/status`, {
    token,
    body: { status },
  });
}

/** The webhook's first delivery once it waits for a retry. */
async function firstRetrying(webhookId: string, timeout?: number) {
  const [d] = await eventually(async () => {
    const rows = await deliveriesOf(webhookId);
    expect(rows[0].status).toBe("RETRYING");
    return rows;
  }, timeout);
  return d;
}

describe("signed deliveries", () => {
  it("delivers an event with the spec's envelope and headers, signed with the installation's secret", async () => {
    const { receiver, app } = await receiverAndApp({ status: 200 });
    const orderId = await pendingOrder(current.businessId);
    await p.request("PATCH", `/app-api/orders/${orderId}/status`, { token: app.token, body: { status: "CONFIRMED" } });
    await receiver.waitFor(1);
    const got = receiver.received[0];
    expect(got.path).toBe("/hooks");
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["user-agent"]).toBe("Service-Webhooks/1.0");
    expect(got.headers["x-webhook-id"]).toBe(app.webhookId);
    expect(got.headers["x-webhook-event"]).toBe("order.status_changed");
    const ts = got.headers["x-webhook-timestamp"] as string;
    expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(30);
    // verified independently with node:crypto
    const expected = "sha256=" + createHmac("sha256", app.secret).update(`${ts}.${got.raw}`).digest("hex");
    expect(got.headers["x-webhook-signature"]).toBe(expected);
    expect(verifyWebhook(got.raw, got.headers, app.secret)).toBe(true);
    expect(got.json).toEqual({
      id: got.headers["x-service-event-id"],
      event: "order.status_changed",
      timestamp: expect.any(String),
      webhookId: app.webhookId,
      businessId: current.businessId,
      apiVersion: "2026-11-21",
      data: { orderId, orderNumber: expect.any(String), previousStatus: "PENDING", status: "CONFIRMED" },
    });
    const log = await eventually(async () => {
      const res = await p.request("GET", `/webhooks/${app.webhookId}/deliveries`, { token: app.token });
      expect(res.json.data[0].status).toBe("SUCCEEDED");
      return res;
    });
    expect(log.json.data[0]).toMatchObject({
      id: got.headers["x-service-event-id"],
      event: "order.status_changed",
      attempts: 1,
      lastStatusCode: 200,
      nextAttemptAt: null,
    });
  });

  it("delivers order.created with the spec's data fields", async () => {
    const { receiver, app } = await receiverAndApp({ status: 204 });
    const order = await placeOrder(app);
    await receiver.waitFor(1);
    expect(receiver.received[0].json.data).toEqual({
      orderId: order.id,
      orderNumber: order.orderNumber,
      amount: order.amount,
      deliveryFee: 0,
      deliveryMethod: "PICKUP",
      paymentMethod: "CARD",
      isGuest: true,
      createdAt: order.createdAt,
    });
  });
});

describe("retries", () => {
  it("retries a 500 after 30 s with the same event id and the same bytes, then succeeds", async () => {
    const { receiver, app } = await receiverAndApp((_r, n) => ({ status: n === 1 ? 500 : 200 }));
    await movePendingOrder(app.token, "CANCELLED");
    await receiver.waitFor(1);
    const d = await firstRetrying(app.webhookId);
    const [attempt] = await p.db.execute<{ created_at: string; status_code: number }>(
      sql`select created_at, status_code from webhook_attempts where delivery_id = ${d.id}`,
    );
    expect(attempt.status_code).toBe(500);
    expect(d.next_attempt_at!.getTime() - new Date(attempt.created_at).getTime()).toBe(30_000);
    // not sent before it is due (the dispatcher claims retries by the row's due time, decision 024)
    await new Promise((r) => setTimeout(r, 1_500));
    expect(receiver.received).toHaveLength(1);

    await makeDue(p.db, "webhook__deliver");
    await receiver.waitFor(2);
    const [first, second] = receiver.received;
    expect(second.headers["x-service-event-id"]).toBe(first.headers["x-service-event-id"]);
    expect(second.raw).toBe(first.raw);
    await eventually(async () =>
      expect((await deliveriesOf(app.webhookId))[0]).toMatchObject({ status: "SUCCEEDED", attempts: 2 }),
    );
  });

  it("follows the schedule 30 s, 2 min, 8 min, 32 min, 2 h, then FAILED (6 attempts)", async () => {
    const { receiver, app } = await receiverAndApp({ status: 503 });
    await movePendingOrder(app.token, "CONFIRMED");
    await receiver.waitFor(1);
    for (let attempt = 1; attempt <= 6; attempt++) {
      const d = await eventually(async () => {
        const [row] = await deliveriesOf(app.webhookId);
        expect(row.attempts).toBe(attempt);
        return row;
      });
      const [lastRow] = await p.db.execute<{ created_at: string }>(
        sql`select created_at from webhook_attempts where delivery_id = ${d.id} order by attempt_no desc limit 1`,
      );
      const last = { created_at: new Date(lastRow.created_at) };
      if (attempt < 6) {
        expect(d.status).toBe("RETRYING");
        expect(d.next_attempt_at!.getTime() - last.created_at.getTime(), `delay after attempt ${attempt}`).toBe(
          RETRY_DELAYS_MS[attempt - 1],
        );
        await makeDue(p.db, "webhook__deliver");
      } else {
        expect(d.status).toBe("FAILED");
        expect(d.next_attempt_at).toBeNull();
      }
    }
    expect(receiver.received).toHaveLength(6);
    expect(new Set(receiver.received.map((r) => r.headers["x-service-event-id"])).size).toBe(1);
  }, 60_000);

  it("counts a 302 as a failure and does not follow it", async () => {
    const target = await startReceiver({ status: 200 });
    const { app } = await receiverAndApp({ status: 302, headers: { Location: target.url + "/elsewhere" } });
    await movePendingOrder(app.token, "CONFIRMED");
    const d = await firstRetrying(app.webhookId);
    const [attempt] = await p.db.execute<{ status_code: number; error: string }>(
      sql`select status_code, error from webhook_attempts where delivery_id = ${d.id}`,
    );
    expect(attempt.status_code).toBe(302);
    expect(attempt.error).toMatch(/redirect/);
    expect(target.received).toHaveLength(0);
  });

  it("gives up on a receiver that hangs past 10 seconds", async () => {
    const { app } = await receiverAndApp({ status: 200, delayMs: 12_000 });
    await movePendingOrder(app.token, "CONFIRMED");
    const d = await firstRetrying(app.webhookId, 20_000);
    const [attempt] = await p.db.execute<{ status_code: number | null; error: string; duration_ms: number }>(
      sql`select status_code, error, duration_ms from webhook_attempts where delivery_id = ${d.id}`,
    );
    expect(attempt.status_code).toBeNull();
    expect(attempt.error).toMatch(/no answer within 10000 ms/);
    expect(attempt.duration_ms).toBeGreaterThanOrEqual(10_000);
    expect(attempt.duration_ms).toBeLessThan(11_500);
  }, 30_000);
});

describe("auto-disable", () => {
  it("disables a registration after 5 consecutive FAILED deliveries; re-activation resets it", async () => {
    const { receiver, app } = await receiverAndApp({ status: 500 });
    for (let n = 1; n <= 5; n++) {
      await placeOrder(app);
      const d = await eventually(async () => {
        const rows = await deliveriesOf(app.webhookId);
        expect(rows).toHaveLength(n);
        expect(rows[n - 1].attempts).toBeGreaterThanOrEqual(1);
        return rows[n - 1];
      });
      // the remaining five attempts, driven directly (no waiting for the schedule)
      while ((await deliveriesOf(app.webhookId))[n - 1].status !== "FAILED") {
        await p.db.execute(sql`update webhook_deliveries set in_flight_since = null where id = ${d.id}`);
        await attemptDelivery(p.db, p.env, d.id);
      }
      const wh = await p.request("GET", `/webhooks/${app.webhookId}`, { token: app.token });
      expect(wh.json.isActive, `after ${n} failed deliveries`).toBe(n < 5);
    }
    const disabled = await p.request("GET", `/webhooks/${app.webhookId}`, { token: app.token });
    expect(disabled.json).toMatchObject({ isActive: false, disabledReason: "consecutive_failures" });

    // the app's developer is told, in the transaction that disabled it (contract 16): one message,
    // naming the URL and the last error, with a one-click unsubscribe (a notification, not always sent)
    const notices = await p.db.execute<{ to_address: string; data: Record<string, unknown>; status: string }>(
      sql`select to_address, data, status from mail_messages where kind = 'webhook.disabled' and data->>'appId' = ${app.appId}`,
    );
    expect(notices).toHaveLength(1);
    expect(notices[0].to_address).toBe(current.email);
    expect(notices[0].data).toMatchObject({ url: disabled.json.url });
    expect(String(notices[0].data.lastError)).toMatch(/500/);

    // nothing more is delivered to it
    const before = receiver.received.length;
    await placeOrder(app);
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.received.length).toBe(before);

    const reactivated = await p.request("PATCH", `/webhooks/${app.webhookId}`, {
      token: app.token,
      body: { isActive: true },
    });
    expect(reactivated.json).toMatchObject({ isActive: true, disabledReason: null });
    const [row] = await p.db.execute<{ consecutive_failures: number }>(
      sql`select consecutive_failures from webhooks where id = ${app.webhookId}`,
    );
    expect(row.consecutive_failures).toBe(0);
  }, 60_000);
});

describe("what is not delivered", () => {
  it("a rolled-back transaction delivers nothing", async () => {
    const { receiver, app } = await receiverAndApp({ status: 200 });
    await expect(
      p.db.transaction(async (tx) => {
        await emitEvent(tx, {
          businessId: current.businessId,
          type: "order.status_changed",
          data: { orderId: "ord_rolled_back", orderNumber: "1", previousStatus: "PENDING", status: "CONFIRMED" },
        });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    const [ev] = await p.db.execute<{ n: number }>(
      sql`select count(*)::int as n from platform_events where data->>'orderId' = 'ord_rolled_back'`,
    );
    expect(ev.n).toBe(0);
    // a refused order change neither
    await movePendingOrder(app.token, "DELIVERED");
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.received).toHaveLength(0);
  });

  it("an event for a scope the installation lacks is not delivered", async () => {
    const receiver = await startReceiver({ status: 200 });
    const app = await install(receiver.url, ["read_orders", "write_orders"], ["order.status_changed"]);
    // even if the registration names it, review.created needs read_reviews
    await p.db.execute(
      sql`update webhooks set events = array['order.status_changed','review.created'] where id = ${app.webhookId}`,
    );
    await p.db.transaction((tx) =>
      emitEvent(tx, {
        businessId: current.businessId,
        type: "review.created",
        data: {
          id: "rev_x",
          productId: "prd_x",
          rating: 5,
          comment: "",
          authorName: "A",
          createdAt: new Date().toISOString(),
          reply: null,
        },
      }),
    );
    await movePendingOrder(app.token, "CONFIRMED");
    await receiver.waitFor(1);
    await new Promise((r) => setTimeout(r, 1000));
    expect(receiver.received.map((r) => r.json.event)).toEqual(["order.status_changed"]);
    // and it cannot subscribe to it
    const refused = await p.request("POST", "/webhooks", {
      token: app.token,
      body: { url: receiver.url, events: ["review.created"] },
    });
    expect(refused.status).toBe(403);
    expect(refused.json.message).toContain("read_reviews");
  });
});

describe("data erasure", () => {
  it("sends business.data_erasure 48 hours after uninstall to the install registration, with its secret", async () => {
    const { receiver, app } = await receiverAndApp({ status: 200 });
    const un = await p.request("POST", `/developer/apps/${app.appId}/test-uninstall`, { token: current.token });
    expect(un.status).toBe(200);
    const [job] = (await jobsOf(p.db, "installation__erasure")).filter(
      (j) => j.key === `erasure:${app.installationId}`,
    );
    const [row] = await p.db.execute<{ uninstalled_at: string }>(
      sql`select uninstalled_at from installations where id = ${app.installationId}`,
    );
    const inst = { uninstalled_at: new Date(row.uninstalled_at) };
    expect(job.runAt.getTime() - inst.uninstalled_at.getTime()).toBe(48 * 3600 * 1000);
    // the uninstall itself sends app.uninstalled at once; the erasure waits for its 48 hours
    await receiver.waitFor(1);
    await new Promise((r) => setTimeout(r, 1000));
    expect(receiver.received.map((r) => r.json.event)).toEqual(["app.uninstalled"]);

    await makeDue(p.db, "installation__erasure");
    await receiver.waitFor(2);
    const got = receiver.received[1];
    expect(got.headers["x-webhook-event"]).toBe("business.data_erasure");
    expect(got.headers["x-webhook-id"]).toBe(app.webhookId);
    expect(verifyWebhook(got.raw, got.headers, app.secret)).toBe(true);
    expect(got.json.data).toEqual({
      appId: app.appId,
      businessId: current.businessId,
      uninstalledAt: inst.uninstalled_at.toISOString(),
    });
    await eventually(async () => {
      const [row] = await p.db.execute<{ erasure_delivered_at: Date | null }>(
        sql`select erasure_delivered_at from installations where id = ${app.installationId}`,
      );
      expect(row.erasure_delivered_at).not.toBeNull();
    });
  });

  it("sends nothing when the app was reinstalled within 48 hours", async () => {
    const { receiver, app } = await receiverAndApp({ status: 200 });
    await p.request("POST", `/developer/apps/${app.appId}/test-uninstall`, { token: current.token });
    const again = await p.request("POST", `/developer/apps/${app.appId}/test-install`, { token: current.token });
    expect(again.status).toBe(201);
    expect(
      (await jobsOf(p.db, "installation__erasure")).filter((j) => j.key === `erasure:${app.installationId}`),
    ).toHaveLength(0);
    await makeDue(p.db, "installation__erasure");
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.received.filter((r) => r.json?.event === "business.data_erasure")).toHaveLength(0);
    await p.request("POST", `/developer/apps/${app.appId}/test-uninstall`, { token: current.token });
  });
});

describe("the /webhooks endpoints", () => {
  it("create, list, read, change, test, redeliver and delete; another installation's ids are 404", async () => {
    const { receiver, app } = await receiverAndApp({ status: 200 });
    const created = await p.request("POST", "/webhooks", {
      token: app.token,
      body: { url: receiver.url + "/own", events: ["order.status_changed"], description: "mine" },
    });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({
      id: expect.stringMatching(/^wh_/),
      url: receiver.url + "/own",
      secret: expect.stringMatching(/^whsec_test_/),
      events: ["order.status_changed"],
      isActive: true,
      createdAt: expect.any(String),
      description: "mine",
    });
    expect(created.json.secret).not.toBe(app.secret);
    expect(created.headers.get("x-ratelimit-limit")).toBe("60");

    for (const [body, status] of [
      [{ url: receiver.url, events: ["order.exploded"] }, 400],
      [{ url: "javascript:alert(1)", events: ["order.created"] }, 400],
      [{ url: receiver.url, events: [] }, 400],
      [{ url: receiver.url, events: ["review.created"] }, 403],
    ] as const)
      expect((await p.request("POST", "/webhooks", { token: app.token, body })).status, JSON.stringify(body)).toBe(
        status,
      );

    const list = await p.request("GET", "/webhooks", { token: app.token });
    expect(list.json.total).toBe(2);
    expect(JSON.stringify(list.json)).not.toContain("whsec_");
    const one = await p.request("GET", `/webhooks/${created.json.id}`, { token: app.token });
    expect(one.json).toMatchObject({ id: created.json.id, disabledReason: null });

    // each delivery is signed with its own registration's secret
    await movePendingOrder(app.token, "CONFIRMED");
    await receiver.waitFor(2);
    const own = receiver.received.find((r) => r.path === "/own")!;
    const install_ = receiver.received.find((r) => r.path === "/hooks")!;
    expect(verifyWebhook(own.raw, own.headers, created.json.secret)).toBe(true);
    expect(verifyWebhook(own.raw, own.headers, app.secret)).toBe(false);
    expect(verifyWebhook(install_.raw, install_.headers, app.secret)).toBe(true);
    expect(own.json.data).toEqual(install_.json.data);
    expect(own.json.id).not.toBe(install_.json.id);

    const deliveries = await eventually(async () => {
      const res = await p.request("GET", `/webhooks/${created.json.id}/deliveries`, { token: app.token });
      expect(res.json.data[0]?.status).toBe("SUCCEEDED");
      return res;
    });
    const deliveryId = deliveries.json.data[0].id;
    const re = await p.request("POST", `/webhooks/${created.json.id}/deliveries/${deliveryId}/redeliver`, {
      token: app.token,
    });
    expect(re.status).toBe(202);
    await receiver.waitFor(3);
    const again = receiver.received[2];
    expect(again.headers["x-service-event-id"]).toBe(deliveryId);
    expect(again.raw).toBe(own.raw);

    const patched = await p.request("PATCH", `/webhooks/${created.json.id}`, {
      token: app.token,
      body: { isActive: false, description: "paused" },
    });
    expect(patched.json).toMatchObject({ isActive: false, description: "paused" });
    expect(
      (await p.request("PATCH", `/webhooks/${created.json.id}`, { token: app.token, body: { secret: "x" } })).status,
    ).toBe(400);
    const test = await p.request("POST", `/webhooks/${created.json.id}/test`, { token: app.token });
    expect(test.status).toBe(200);
    expect(test.json).toEqual({ success: true, statusCode: 200, durationMs: expect.any(Number) });
    const testDelivery = receiver.received.at(-1)!;
    expect(testDelivery.json).toMatchObject({
      event: "webhook.test",
      webhookId: created.json.id,
      data: { message: expect.any(String), webhookId: created.json.id },
    });
    expect(verifyWebhook(testDelivery.raw, testDelivery.headers, created.json.secret)).toBe(true);

    receiver.set({ status: 500 });
    const failing = await p.request("POST", `/webhooks/${created.json.id}/test`, { token: app.token });
    expect(failing.json).toMatchObject({ success: false, statusCode: 500, error: "HTTP 500" });

    // another installation sees none of it
    const owner = current;
    const stranger = await install(receiver.url, ["read_orders"], [], owner);
    for (const [method, path] of [
      ["GET", `/webhooks/${created.json.id}`],
      ["PATCH", `/webhooks/${created.json.id}`],
      ["DELETE", `/webhooks/${created.json.id}`],
      ["GET", `/webhooks/${created.json.id}/deliveries`],
      ["POST", `/webhooks/${created.json.id}/deliveries/${deliveryId}/redeliver`],
      ["POST", `/webhooks/${created.json.id}/test`],
    ] as const) {
      const res = await p.request(method, path, {
        token: stranger.token,
        body: method === "PATCH" ? { description: "x" } : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await p.request("GET", `/webhooks/${created.json.id}`, { token: app.token })).json.description).toBe(
      "paused",
    );

    expect((await p.request("DELETE", `/webhooks/${app.webhookId}`, { token: app.token })).status).toBe(409);
    const del = await p.request("DELETE", `/webhooks/${created.json.id}`, { token: app.token });
    expect(del.status).toBe(204);
    expect((await p.request("GET", `/webhooks/${created.json.id}`, { token: app.token })).status).toBe(404);
  }, 30_000);
});
