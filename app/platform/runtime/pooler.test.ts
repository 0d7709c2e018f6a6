/**
 * DATABASE_PREPARE=false (README; decision 038): behind a pooler in transaction mode (PgBouncer
 * before 1.21) a named prepared statement made on one server connection is missing on the next,
 * and the App API answered "prepared statement … does not exist" (found by bench/topology.ts: the
 * token lookup prepared its statement whatever the setting). A proxy between the platform and
 * PostgreSQL reads the protocol and records the name of every Parse message: with the setting off,
 * a web process's App API calls, checkout included, name none; with it on (the default), they do.
 */
import { afterAll, expect, it } from "vitest";
import net from "node:net";
import { sql } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { appBody } from "../apps/apps.test-helpers";
import { createDb } from "../../../db/client";
import { createWebServer } from "../../web.server";

const p = await startPlatform();

/** A TCP proxy to the test database that records the statement name of each Parse ('P') message. */
async function parseRecordingProxy(target: URL) {
  const names: string[] = [];
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    let buffer = Buffer.alloc(0);
    let started = false;
    client.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (!started) {
          // the startup message (or an SSLRequest / CancelRequest): length, code, no type byte
          if (buffer.length < 8) break;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) break;
          if (buffer.readInt32BE(4) !== 80877103) started = true;
          buffer = buffer.subarray(length);
          continue;
        }
        if (buffer.length < 5) break;
        const total = 1 + buffer.readInt32BE(1);
        if (buffer.length < total) break;
        if (buffer[0] === 0x50) names.push(buffer.subarray(5, buffer.indexOf(0, 5)).toString("utf8"));
        buffer = buffer.subarray(total);
      }
    });
    client.pipe(upstream);
    upstream.pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", close);
    upstream.on("error", close);
    client.on("close", close);
    upstream.on("close", close);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as net.AddressInfo).port);
  return { url: url.toString(), names, close: () => new Promise((r) => server.close(r)) };
}

const proxy = await parseRecordingProxy(new URL(p.dbUrl));
afterAll(() => proxy.close());

const dev = await p.register("DEVELOPER");
const created = await p.request("POST", "/developer/apps", {
  token: dev.token,
  body: appBody({
    scopes: ["read_products", "write_orders", "read_orders", "read_reviews"],
    webhookUrl: null,
    webhookEvents: [],
  }),
});
const install = await p.request("POST", `/developer/apps/${created.json.id}/test-install`, { token: dev.token });
const [product] = await p.db.execute<{ id: string }>(
  sql`select id from products where business_id = ${dev.businessId} and stock is null and is_available limit 1`,
);

/** A web process on the proxy with `prepare`, its App API calls (reads, an order, its status), and the Parse names it sent. */
async function callsThrough(prepare: boolean) {
  const db = createDb(proxy.url, { max: 3, prepare });
  const web = await createWebServer({ db: db.db, env: p.env, port: 0, host: "127.0.0.1" });
  const from = proxy.names.length;
  try {
    const headers = { Authorization: `Bearer ${install.json.accessToken}`, "Content-Type": "application/json" };
    for (const path of ["/app-api/products?limit=5", "/app-api/orders", "/app-api/reviews"]) {
      const res = await fetch(`${web.url}${path}`, { headers });
      expect(res.status, path).toBe(200);
    }
    const order = await fetch(`${web.url}/app-api/orders`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        customer: { name: "Pooler", phone: "555" },
        items: [{ productId: product.id, quantity: 1 }],
        deliveryMethod: "PICKUP",
        paymentMethod: "CASH",
      }),
    });
    expect(order.status).toBe(201);
    const { id } = (await order.json()) as { id: string };
    const status = await fetch(`${web.url}/app-api/orders/${id}/status`, {
      method: "PATCH",
      headers,
      body: JSON.stringify({ status: "CONFIRMED" }),
    });
    expect(status.status).toBe(200);
  } finally {
    await web.close();
    await db.close();
  }
  return proxy.names.slice(from);
}

it("names no prepared statement with DATABASE_PREPARE=false, and names them by default", async () => {
  const off = await callsThrough(false);
  expect(off.length).toBeGreaterThan(10);
  expect(off.filter((name) => name !== "")).toEqual([]);

  const on = await callsThrough(true);
  expect(on.filter((name) => name !== "").length).toBeGreaterThan(0);
});
