/**
 * Every list of the App API and /webhooks pages by cursor (contract 6, decision 067): walked by
 * `after=<nextCursor>` and by `page=N` it gives the same rows, `nextCursor` is null on the last page,
 * and a cursor sent with `page`, malformed, tampered with, or another list's or tenant's is a 400.
 */
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { responseChecker } from "../testing/openapi-check";
import { appBody, PRO_PLAN } from "../apps/apps.test-helpers";
import { SCOPE_NAMES } from "../shapes/app-catalog";

const p = await startPlatform({ env: { APP_API_RATE_LIMIT: "100000" } });
const devA = await p.register("DEVELOPER");
const devB = await p.register("DEVELOPER");

async function install(dev: typeof devA) {
  const app = await p.request("POST", "/developer/apps", {
    token: dev.token,
    body: appBody({ scopes: SCOPE_NAMES, pricing: [PRO_PLAN], webhookUrl: "https://loyalty.example/webhooks" }),
  });
  expect(app.status).toBe(201);
  const inst = await p.request("POST", `/developer/apps/${app.json.id}/test-install`, { token: dev.token });
  expect(inst.status).toBe(201);
  return { token: inst.json.accessToken as string, installationId: inst.json.installationId as string };
}
const A = await install(devA);
const B = await install(devB);
const doc = (await p.request("GET", "/app-api/openapi.json")).json;
const check = responseChecker(doc);

const get = async (path: string, docPath: string, token = A.token) => {
  const res = await p.request("GET", path, { token });
  check(docPath, "GET", res.status, res.json);
  return res;
};

// rows enough for several pages of every list
for (let i = 0; i < 4; i++) {
  const res = await p.request("POST", "/webhooks", {
    token: A.token,
    body: { url: `https://loyalty.example/h${i}`, events: ["order.created"] },
  });
  expect(res.status).toBe(201);
}
for (let i = 0; i < 3; i++) {
  const res = await p.request("POST", "/app-api/billing/subscriptions", {
    token: A.token,
    body: { planId: "pro", returnUrl: "https://loyalty.example/billing/done" },
  });
  expect(res.status).toBe(201);
}
const [installHook] = (await p.request("GET", "/webhooks?limit=100", { token: A.token })).json.data.slice(-1);
// deliveries: some sharing one createdAt (the keyset breaks ties by id), with microseconds a JS Date cannot hold
await p.db.execute(sql`
  insert into webhook_deliveries (id, event_id, event, webhook_id, installation_id, app_id, business_id, body, created_at)
  select 'dlv_' || md5(g::text), 'evt_' || g, 'order.created', w.id, w.installation_id, w.app_id, w.business_id, '{}',
         timestamptz '2026-01-01 00:00:00.123456+00' - ((g / 3) * interval '1 millisecond') + ((g % 2) * interval '1 microsecond')
  from generate_series(1, 23) g, webhooks w where w.id = ${installHook.id}`);

/** Walks a list by cursor and by page; both give the same ids, in order, and every page says its number. */
async function walk(path: string, docPath: string, limit: number) {
  const sep = path.includes("?") ? "&" : "?";
  const byCursor: string[] = [];
  let url = `${path}${sep}limit=${limit}`;
  let page = 0;
  let total = -1;
  for (;;) {
    const res = await get(url, docPath);
    expect(res.status, url).toBe(200);
    page++;
    expect(res.json.page).toBe(page);
    total = res.json.total;
    byCursor.push(...res.json.data.map((r: { id: string }) => r.id));
    if (res.json.nextCursor === null) break;
    expect(res.json.data).toHaveLength(limit);
    url = `${path}${sep}limit=${limit}&after=${encodeURIComponent(res.json.nextCursor)}`;
  }
  const byPage: string[] = [];
  for (let n = 1; ; n++) {
    const res = await get(`${path}${sep}limit=${limit}&page=${n}`, docPath);
    if (res.json.data.length === 0) break;
    byPage.push(...res.json.data.map((r: { id: string }) => r.id));
  }
  expect(byCursor).toEqual(byPage);
  expect(new Set(byCursor).size).toBe(byCursor.length);
  expect(byCursor.length).toBe(total);
  return { ids: byCursor, pages: page };
}

describe("cursors on every list", () => {
  it("walks products, orders, reviews, pages, webhooks, deliveries and subscriptions by cursor and by page alike", async () => {
    const lists: [string, string, number, number][] = [
      ["/app-api/products", "/app-api/products", 5, 24],
      ["/app-api/orders", "/app-api/orders", 7, 30],
      ["/app-api/reviews", "/app-api/reviews", 4, 15],
      ["/app-api/pages", "/app-api/pages", 2, 3],
      ["/webhooks", "/webhooks", 2, 5],
      [`/webhooks/${installHook.id}/deliveries`, "/webhooks/{id}/deliveries", 4, 23],
      ["/app-api/billing/subscriptions", "/app-api/billing/subscriptions", 2, 3],
    ];
    for (const [path, docPath, limit, count] of lists) {
      const { ids, pages } = await walk(path, docPath, limit);
      expect(ids.length, path).toBe(count);
      expect(pages, path).toBe(Math.ceil(count / limit));
    }
  });

  it("answers nextCursor null on a last page, and on a single page", async () => {
    const all = await get("/app-api/pages?limit=100", "/app-api/pages");
    expect(all.json).toMatchObject({ page: 1, total: 3, nextCursor: null });
    const first = await get("/app-api/products?limit=24", "/app-api/products");
    expect(first.json.nextCursor).toBeNull();
  });

  it("declares after and nextCursor in the document", () => {
    const params = doc.paths["/app-api/orders"].get.parameters.map((x: { name: string }) => x.name);
    expect(params).toEqual(expect.arrayContaining(["page", "limit", "after"]));
    expect(doc.components.schemas.OrderList.required).toContain("nextCursor");
    expect(doc.components.schemas.DeliveryList.properties.nextCursor).toBeTruthy();
  });
});

const cursor: string = (await get("/app-api/orders?limit=5", "/app-api/orders")).json.nextCursor;

describe("bad cursors", () => {
  it("refuses page and after together", async () => {
    const res = await get(`/app-api/orders?page=2&after=${cursor}`, "/app-api/orders");
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      statusCode: 400,
      message: expect.stringMatching(/page or after/),
      error: "Bad Request",
    });
  });

  it("refuses a malformed or tampered cursor", async () => {
    const [payload, mac] = cursor.split(".");
    const forged = Buffer.from(JSON.stringify(["2000-01-01 00:00:00+00", "x", 1])).toString("base64url");
    for (const bad of [
      "",
      "abc",
      `${payload}`,
      `${payload}.`,
      `${payload}.${mac}.x`,
      `${forged}.${mac}`,
      `${payload}.${mac.slice(0, -1)}A`,
      "%00",
      "a".repeat(600),
    ]) {
      const res = await get(`/app-api/orders?after=${encodeURIComponent(bad)}`, "/app-api/orders");
      expect(res.status, bad).toBe(400);
      expect(res.json.message).toMatch(/after/);
    }
  });

  it("refuses another list's cursor and another tenant's", async () => {
    const productsCursor = (await get("/app-api/products?limit=5", "/app-api/products")).json.nextCursor;
    expect((await get(`/app-api/orders?after=${productsCursor}`, "/app-api/orders")).status).toBe(400);
    expect((await get(`/app-api/products?after=${cursor}`, "/app-api/products")).status).toBe(400);
    // B's own orders list refuses A's cursor: it names A's business
    const res = await get(`/app-api/orders?after=${cursor}`, "/app-api/orders", B.token);
    expect(res.status).toBe(400);
    // and a cursor of one registration's deliveries does not open another's
    const hooks = (await get("/webhooks?limit=100", "/webhooks")).json.data;
    const dl = (await get(`/webhooks/${installHook.id}/deliveries?limit=2`, "/webhooks/{id}/deliveries")).json;
    const other = hooks.find((h: { id: string }) => h.id !== installHook.id);
    const cross = await get(`/webhooks/${other.id}/deliveries?after=${dl.nextCursor}`, "/webhooks/{id}/deliveries");
    expect(cross.status).toBe(400);
  });

  it("keeps the page number of a cursor taken from page=N", async () => {
    const second = await get("/app-api/orders?limit=5&page=2", "/app-api/orders");
    const third = await get(`/app-api/orders?limit=5&after=${second.json.nextCursor}`, "/app-api/orders");
    const byNumber = await get("/app-api/orders?limit=5&page=3", "/app-api/orders");
    expect(third.json.page).toBe(3);
    expect(third.json.data.map((o: { id: string }) => o.id)).toEqual(
      byNumber.json.data.map((o: { id: string }) => o.id),
    );
    expect(third.json.total).toBe(30);
  });
});
