/**
 * API versions (issue 32, decisions 041 and 042) against the real platform: the registry's dates,
 * pinning (API, CLI), each version change fed a real answer, an operation's first version, calls
 * counted in batches, and a clock moved to a deprecated version (headers, notices, the portal's
 * warnings) and past its sunset (410 for calls, webhooks in the oldest supported version).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { startPlatform } from "../testing/platform";
import { startReceiver, eventually } from "../testing/receiver";
import { BrowserSession } from "../testing/browser";
import { appBody } from "../apps/apps.test-helpers";
import { SCOPE_NAMES } from "../shapes/app-catalog";
import { setClockOffset } from "../core/clock.server";
import { versionStates, changesBetween, versionsAnswer, statesAt } from "./registry";
import { VERSIONING } from "./changes";
import { Order, Product, DeliveryList } from "../shapes/api";
import { appApiRoute, operation } from "../app-api/wrapper.server";
import { flushUsage, FLUSH_MS } from "./usage.server";
import { createDb } from "../../../db/client";
import { createWebServer } from "../../web.server";
import { notifyVersionDeadlines } from "./health.server";
import { now } from "../core/clock.server";
import { verifyWebhook } from "../../../packages/app-sdk/src/webhooks";

const p = await startPlatform({ worker: true });
afterEach(() => setClockOffset(0));
const receiver = await startReceiver({ status: 200 });
const dev = await p.register("DEVELOPER");

async function makeApp(owner: typeof dev, version?: string) {
  const app = await p.request("POST", "/developer/apps", {
    token: owner.token,
    body: appBody({
      scopes: SCOPE_NAMES,
      webhookUrl: `${receiver.url}/${owner.businessId}/`,
      webhookEvents: ["order.created"],
    }),
  });
  expect(app.status, app.text).toBe(201);
  if (version) {
    const patched = await p.request("PATCH", `/developer/apps/${app.json.id}`, {
      token: owner.token,
      body: { apiVersion: version },
    });
    expect(patched.status, patched.text).toBe(200);
  }
  const inst = await p.request("POST", `/developer/apps/${app.json.id}/test-install`, { token: owner.token });
  expect(inst.status, inst.text).toBe(201);
  return {
    id: app.json.id as string,
    token: inst.json.accessToken as string,
    secret: inst.json.webhookSecret as string,
  };
}

const oldApp = await makeApp(dev, "2026-11-21");
const [product] = await p.db.execute<{ id: string; price: number }>(
  sql`select id, price from products where business_id = ${dev.businessId} and stock is null and is_available order by created_at, id limit 1`,
);
const order = await p.request("POST", "/app-api/orders", {
  token: oldApp.token,
  body: {
    customer: { name: "Ada", phone: "555" },
    items: [{ productId: product.id, quantity: 2 }],
    deliveryMethod: "DELIVERY",
    address: "1 Main St",
    paymentMethod: "CASH",
  },
});
expect(order.status, order.text).toBe(201);
/** A page's HTML without React's text separators. */
const text = (html: string) => html.replace(/<!-- -->/g, "");
const at = (iso: string) => setClockOffset(Date.parse(iso) - Date.now());

describe("the registry", () => {
  it("answers each date as if worked out afresh, whatever dates were asked before it", () => {
    // every change of the schedule, a millisecond either side, and dates far before and after, in a shuffled order
    const sample = ["2026-11-21", "2026-11-27", "2027-05-27", "2027-11-27"].flatMap((d) => {
      const t = Date.parse(`${d}T00:00:00Z`);
      return [t - 1, t, t + 1];
    });
    sample.push(0, Date.parse("2099-01-01T00:00:00Z"), Date.parse("2026-12-15T00:00:00Z"));
    const order = [...sample, ...sample.slice().reverse(), ...sample.map((_, i) => sample[(i * 7) % sample.length])];
    for (const t of order) expect(versionStates(new Date(t)), new Date(t).toISOString()).toEqual(statesAt(t));
  });

  it("dates each version: 2026-11-21 supported until 12 months after 2026-11-27, deprecated in its last 6", () => {
    const states = (iso: string) =>
      versionStates(new Date(iso)).map((s) => [s.version, s.status, s.sunsetAt?.toISOString().slice(0, 10)]);
    expect(states("2026-11-26T12:00:00Z")).toEqual([["2026-11-21", "CURRENT", undefined]]);
    expect(states("2026-11-27T00:00:00Z")).toEqual([
      ["2026-11-21", "SUPPORTED", "2027-11-27"],
      ["2026-11-27", "CURRENT", undefined],
    ]);
    expect(states("2027-05-27T00:00:00Z")[0][1]).toBe("DEPRECATED");
    expect(states("2027-11-27T00:00:00Z")[0][1]).toBe("SUNSET");
    expect(versionsAnswer(new Date("2027-11-27T00:00:00Z")).supported.map((s) => s.version)).toEqual(["2026-11-27"]);
    expect(changesBetween("2026-11-21", "2026-11-27").map((c) => c.change.anchor)).toEqual([
      "money-as-objects",
      "delivery-api-version",
    ]);
  });
});

describe("pinning", () => {
  it("a new app gets the current version; PATCH changes it, refuses an unknown one, and another developer's app is 404", async () => {
    const created = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody() });
    expect(created.json.apiVersion).toBe("2026-11-27");
    const bad = await p.request("PATCH", `/developer/apps/${created.json.id}`, {
      token: dev.token,
      body: { apiVersion: "2026-12-01" },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe(
      "apiVersion: 2026-12-01 is not a supported API version; supported: 2026-11-21, 2026-11-27",
    );
    const malformed = await p.request("PATCH", `/developer/apps/${created.json.id}`, {
      token: dev.token,
      body: { apiVersion: "latest" },
    });
    expect(malformed.status).toBe(400);
    const other = await p.register("DEVELOPER");
    const foreign = await p.request("PATCH", `/developer/apps/${created.json.id}`, {
      token: other.token,
      body: { apiVersion: "2026-11-21" },
    });
    expect(foreign.status).toBe(404);
    const [row] = await p.db.execute<{ api_version: string }>(
      sql`select api_version from apps where id = ${created.json.id}`,
    );
    expect(row.api_version).toBe("2026-11-27");
  });

  it("the CLI shows the pin and, before moving it, the changes in between", async () => {
    const configDir = mkdtempSync(join(tmpdir(), "storefront-apps-"));
    const env = { ...process.env, STOREFRONT_APPS_CONFIG_DIR: configDir, STOREFRONT_APPS_URL: "" };
    const bin = new URL("../../../packages/app-sdk/bin/storefront-apps.js", import.meta.url).pathname;
    const cli = async (...args: string[]) =>
      (await promisify(execFile)(process.execPath, [bin, ...args], { env, cwd: configDir })).stdout;
    await cli("login", "--email", dev.email, "--password", dev.password, "--platform", p.url);
    const created = await p.request("POST", "/developer/apps", { token: dev.token, body: appBody() });
    const shown = await cli("version", "--app", created.json.id);
    expect(shown).toContain("is pinned to API version 2026-11-27 (current)");
    const moved = await cli("version", "--set", "2026-11-21", "--yes", "--app", created.json.id);
    expect(moved).toContain("from 2026-11-27 to 2026-11-21 changes:");
    expect(moved).toContain("2026-11-27 (undone): Every money field of the App API");
    expect(moved).toContain("/portal/docs/changelog#money-as-objects");
    expect(moved).toContain("is now pinned to 2026-11-21");
    const again = await cli("version", "--app", created.json.id);
    expect(again).toContain("Changes up to the current version 2026-11-27:");
  }, 180_000);
});

describe("each version change on a real answer", () => {
  it("money-as-objects takes a real 2026-11-27 order, product and event down to the bytes 2026-11-21 answers", async () => {
    const orderId = order.json.id as string;
    const headers = (v: string) => ({ "Api-Version": v });
    const newest = await p.request("GET", `/app-api/orders/${orderId}`, {
      token: oldApp.token,
      headers: headers("2026-11-27"),
    });
    const oldest = await p.request("GET", `/app-api/orders/${orderId}`, {
      token: oldApp.token,
      headers: headers("2026-11-21"),
    });
    expect(newest.json.amount.currency).toBe("USD");
    expect(JSON.stringify(VERSIONING.answer(Order, newest.json, "2026-11-21"))).toBe(oldest.text);
    expect(VERSIONING.answer(Order, newest.json, "2026-11-27")).toBe(newest.json);
    const np = await p.request("GET", `/app-api/products/${product.id}`, {
      token: oldApp.token,
      headers: headers("2026-11-27"),
    });
    const op = await p.request("GET", `/app-api/products/${product.id}`, {
      token: oldApp.token,
      headers: headers("2026-11-21"),
    });
    expect(JSON.stringify(VERSIONING.answer(Product, np.json, "2026-11-21"))).toBe(op.text);
    // the event as written (newest shape) and as the old app received it
    const [event] = await p.db.execute<{ data: Record<string, unknown> }>(
      sql`select data from platform_events where type = 'order.created' and data->>'orderId' = ${orderId}`,
    );
    expect(event.data.amount).toEqual({ amount: order.json.amount * 100, currency: "USD" });
    const received = await eventually(async () => {
      const r = receiver.received.find((x) => x.json?.data?.orderId === orderId);
      if (!r) throw new Error("not yet");
      return r;
    });
    // (jsonb keeps its own key order, so the row's data is compared as values; the delivered bytes are compared in versions-contract.test.ts)
    expect(VERSIONING.event("order.created", event.data, "2026-11-21")).toEqual(received.json.data);
    expect(verifyWebhook(received.raw, received.headers, oldApp.secret).apiVersion).toBe("2026-11-21");
  });

  it("money-as-objects on hook calls: down for the call, up for the answer, rounding as before", () => {
    const call = {
      items: [],
      subtotal: { amount: 3450, currency: "JPY" },
      builtInFee: { amount: 300, currency: "JPY" },
      deliveryMethod: "DELIVERY",
    };
    expect(VERSIONING.hookCall("checkout.shipping_rates", call, "2026-11-21")).toEqual({
      ...call,
      subtotal: 3450,
      builtInFee: 300,
    });
    expect(VERSIONING.hookAnswer("checkout.shipping_rates", { fee: 450.4 }, call, "2026-11-21")).toEqual({
      fee: { amount: 450.4, currency: "JPY" },
    });
    expect(
      VERSIONING.hookAnswer("checkout.shipping_rates", { fee: { amount: 450, currency: "JPY" } }, call, "2026-11-27"),
    ).toEqual({ fee: { amount: 450, currency: "JPY" } });
    expect(
      VERSIONING.hookCall(
        "checkout.create_payment",
        { amount: { amount: 3775, currency: "USD" }, currency: "USD" },
        "2026-11-21",
      ),
    ).toEqual({ amount: "3775", currency: "USD" });
  });

  it("delivery-api-version removes apiVersion from a real 2026-11-21 delivery log", async () => {
    const [hook] = await p.db.execute<{ id: string }>(sql`select id from webhooks where app_id = ${oldApp.id} limit 1`);
    const n = await p.request("GET", `/webhooks/${hook.id}/deliveries`, {
      token: oldApp.token,
      headers: { "Api-Version": "2026-11-27" },
    });
    const o = await p.request("GET", `/webhooks/${hook.id}/deliveries`, { token: oldApp.token });
    expect(n.json.data[0].apiVersion).toBe("2026-11-21");
    expect(o.json.data[0]).not.toHaveProperty("apiVersion");
    expect(JSON.stringify(VERSIONING.answer(DeliveryList, n.json, "2026-11-21"))).toBe(o.text);
  });

  it('JPY: ¥650 is {amount: 650, currency: "JPY"} in 2026-11-27 and 650 in 2026-11-21', async () => {
    const shop = await p.register("DEVELOPER");
    await p.db.execute(sql`update businesses set currency = 'JPY' where id = ${shop.businessId}`);
    await p.db.execute(
      sql`update products set price = 650 where id = (select id from products where business_id = ${shop.businessId} order by id limit 1)`,
    );
    const [yen] = await p.db.execute<{ id: string }>(
      sql`select id from products where business_id = ${shop.businessId} and price = 650`,
    );
    const a = await makeApp(shop);
    const n = await p.request("GET", `/app-api/products/${yen.id}`, { token: a.token });
    const o = await p.request("GET", `/app-api/products/${yen.id}`, {
      token: a.token,
      headers: { "Api-Version": "2026-11-21" },
    });
    expect(n.json.price).toEqual({ amount: 650, currency: "JPY" });
    expect(o.json.price).toBe(650);
  });
});

describe("an operation's first version", () => {
  const route = appApiRoute("/app-api/since-test", {
    GET: operation({
      summary: "An operation that exists from 2026-11-27 on",
      since: "2026-11-27",
      answer: { status: 200, schema: z.object({ ok: z.boolean() }) },
      errors: [],
      handler: async () => ({ ok: true }),
    }),
  });
  const call = (version: string) =>
    route.loader({
      request: new Request(`${p.url}/app-api/since-test`, {
        headers: { Authorization: `Bearer ${oldApp.token}`, "Api-Version": version },
      }),
      params: {},
      context: { db: p.db, env: p.env },
    } as never) as Promise<Response>;

  it("answers 404 naming the version it needs in an older version, and works from it on", async () => {
    const before = await call("2026-11-21");
    expect(before.status).toBe(404);
    expect((await before.json()).message).toBe(
      "This operation exists from API version 2026-11-27 on; this request is in 2026-11-21 (send Api-Version: 2026-11-27 or later, or change the app's apiVersion)",
    );
    expect(before.headers.get("api-version")).toBe("2026-11-21");
    const after = await call("2026-11-27");
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual({ ok: true });
  });
});

describe("calls counted per version without a write per request", () => {
  it("adds the in-process counts to daily rows when flushed, and the API health page shows them", async () => {
    const fresh = await p.register("DEVELOPER");
    const a = await makeApp(fresh, "2026-11-21");
    for (let i = 0; i < 3; i++) await p.request("GET", "/app-api/orders", { token: a.token });
    await p.request("GET", "/app-api/products", { token: a.token, headers: { "Api-Version": "2026-11-27" } });
    const before = await p.db.execute(sql`select 1 from api_version_usage where app_id = ${a.id}`);
    expect(before.length).toBe(0);
    await flushUsage(p.db);
    const rows = await p.db.execute<{ api_version: string; operation: string; calls: number }>(
      sql`select api_version, operation, calls::int from api_version_usage where app_id = ${a.id} order by 1, 2`,
    );
    expect(rows.map((r) => [r.api_version, r.operation, r.calls])).toEqual([
      ["2026-11-21", "getAppApiOrders", 3],
      ["2026-11-27", "getAppApiProducts", 1],
    ]);
    const browser = await BrowserSession.signIn(p.url, fresh.email, fresh.password);
    const page = await browser.get(`/portal/apps/${a.id}/api`);
    expect(page.status).toBe(200);
    expect(text(page.html)).toContain("GET /app-api/orders");
    expect(page.html).toContain("data.subtotal");
    expect(page.html).toContain("data.items.price");
  });

  it("writes what a web process counted when it closes, and no timer fires on its closed pool", async () => {
    const fresh = await p.register("DEVELOPER");
    const a = await makeApp(fresh, "2026-11-27");
    // a web process of its own on a pool of its own, closed as a shutdown closes it: server, then pool
    const own = createDb(p.dbUrl, { max: 2 });
    const web = await createWebServer({ db: own.db, env: p.env, port: 0, host: "127.0.0.1" });
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${web.url}/app-api/orders`, { headers: { Authorization: `Bearer ${a.token}` } });
      expect(res.status).toBe(200);
    }
    await web.close();
    await own.close();
    const rows = await p.db.execute<{ api_version: string; operation: string; calls: number }>(
      sql`select api_version, operation, calls::int from api_version_usage where app_id = ${a.id}`,
    );
    expect(rows.map((r) => [r.api_version, r.operation, r.calls])).toEqual([["2026-11-27", "getAppApiOrders", 2]]);
    const errors: unknown[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((...args) => void errors.push(args));
    try {
      await new Promise((r) => setTimeout(r, FLUSH_MS + 500));
    } finally {
      spy.mockRestore();
    }
    expect(errors).toEqual([]);
  });
});

describe("a clock moved to the deprecation and past the sunset", () => {
  it("warns in headers, notices and the portal while deprecated; refuses calls and renders webhooks forward after the sunset", async () => {
    // 2027-06-01: 2026-11-21 is deprecated (from 2027-05-27), its sunset 2027-11-27
    at("2027-06-01T12:00:00Z");
    const deprecated = await p.request("GET", "/app-api/business", { token: oldApp.token });
    expect(deprecated.status).toBe(200);
    expect(deprecated.headers.get("deprecation")).toBe(`@${Date.parse("2027-05-27T00:00:00Z") / 1000}`);
    expect(deprecated.headers.get("sunset")).toBe("Sat, 27 Nov 2027 00:00:00 GMT");
    expect(deprecated.headers.get("link")).toBe(
      `<${p.url}/portal/docs/changelog#v2026-11-21>; rel="deprecation"; type="text/html"`,
    );
    const current = await p.request("GET", "/app-api/business", {
      token: oldApp.token,
      headers: { "Api-Version": "2026-11-27" },
    });
    expect(current.headers.get("deprecation")).toBeNull();
    expect((await p.request("GET", "/app-api/versions")).json.supported[1].status).toBe("DEPRECATED");

    expect(await notifyVersionDeadlines(p.db, now())).toBeGreaterThan(0);
    expect(await notifyVersionDeadlines(p.db, now())).toBe(0);
    const browser = await BrowserSession.signIn(p.url, dev.email, dev.password);
    expect(text((await browser.get("/portal")).html)).toContain("API version 2026-11-21 is deprecated");
    const apiPage = await browser.get(`/portal/apps/${oldApp.id}/api`);
    expect(text(apiPage.html)).toContain("2026-11-21 is deprecated: its sunset is on <strong>2027-11-27</strong>");

    // 30 days before the sunset: the second notice
    at("2027-10-29T12:00:00Z");
    await notifyVersionDeadlines(p.db, now());
    const later = await BrowserSession.signIn(p.url, dev.email, dev.password);
    expect(text((await later.get("/portal")).html)).toContain("API version 2026-11-21 ends on 2027-11-27");

    // past the sunset: calls in 2026-11-21 are refused, naming the supported versions
    at("2027-11-28T12:00:00Z");
    const gone = await p.request("GET", "/app-api/business", { token: oldApp.token });
    expect(gone.status).toBe(410);
    expect(gone.json.message).toBe(
      "API version 2026-11-21 (the app's pinned version) passed its sunset on 2027-11-27; supported: 2026-11-27. Change the app's apiVersion or send Api-Version.",
    );
    expect(gone.headers.get("api-version")).toBe("2026-11-27");
    const asked = await p.request("GET", "/app-api/business", {
      token: oldApp.token,
      headers: { "Api-Version": "2026-11-21" },
    });
    expect(asked.status).toBe(410);
    const overridden = await p.request("GET", `/app-api/orders/${order.json.id}`, {
      token: oldApp.token,
      headers: { "Api-Version": "2026-11-27" },
    });
    expect(overridden.status).toBe(200);
    expect(overridden.json.amount.currency).toBe("USD");
    expect((await p.request("GET", "/app-api/versions")).json).toEqual({
      current: "2026-11-27",
      supported: [{ version: "2026-11-27", releasedAt: "2026-11-27T00:00:00.000Z", status: "CURRENT" }],
    });
    expect((await p.request("GET", "/app-api/openapi.json?version=2026-11-21")).status).toBe(400);

    // a webhook to the app still pinned to 2026-11-21 goes out in the oldest supported version, which the envelope names
    const placed = await p.request("POST", "/app-api/orders", {
      token: oldApp.token,
      headers: { "Api-Version": "2026-11-27" },
      body: {
        customer: { name: "Bo", phone: "556" },
        items: [{ productId: product.id, quantity: 1 }],
        deliveryMethod: "PICKUP",
        paymentMethod: "CASH",
      },
    });
    expect(placed.status, placed.text).toBe(201);
    const delivered = await eventually(async () => {
      const r = receiver.received.find((x) => x.json?.data?.orderId === placed.json.id);
      if (!r) throw new Error("not yet");
      return r;
    });
    expect(delivered.headers["api-version"]).toBe("2026-11-27");
    expect(delivered.json.apiVersion).toBe("2026-11-27");
    expect(delivered.json.data.amount).toEqual(placed.json.amount);
  });
});
