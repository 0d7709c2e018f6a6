/**
 * Customer privacy (contract 15, decision 040), against the real server, worker and a real receiver:
 * export and erasure through POST /merchant/privacy/requests, the customer.data_request and
 * customer.redact deliveries, every table of the database searched after an erasure, another
 * business's shopper with the same e-mail left alone, and identical erasures sent together.
 */
import { describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { startPlatform } from "../testing/platform";
import { BrowserSession } from "../testing/browser";
import { startReceiver, eventually } from "../testing/receiver";
import { appBody } from "../apps/apps.test-helpers";
import { installThroughOAuth } from "../testing/install";
import { verifyWebhook } from "../webhooks/verify";
import { createProduct, createReview, productSchema } from "../catalog/products.server";
import { decrypt } from "../core/crypto.server";
import { ERASED_NAME, ERASED_TEXT, scrubJson, scrubText } from "./scrub.server";

const p = await startPlatform({ worker: true });
const receiver = await startReceiver();
const reviewer = await p.createUser("REVIEWER");
const dev = await p.register("DEVELOPER");

/** A merchant with a product and an app (read_orders, write_orders, read_reviews) whose install registration posts to the receiver. */
async function shop(label: string) {
  const merchant = await p.register("MERCHANT");
  const browser = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
  const { app, token } = await installThroughOAuth(
    p,
    { developer: dev, reviewer, merchant: browser },
    appBody({
      scopes: ["read_orders", "write_orders", "read_reviews"],
      webhookUrl: `${receiver.url}/${label}`,
      webhookEvents: ["order.created", "review.created"],
    }),
  );
  const [inst] = await p.sql<{ id: string }[]>`
    select id from installations where app_id = ${app.id} and business_id = ${merchant.businessId}`;
  const product = await createProduct(
    p.db,
    merchant.businessId,
    productSchema.parse({ name: `Tea ${label}`, slug: `tea-${label}`, price: 1250, category: "Drinks" }),
  );
  return { merchant, token, app, installationId: inst.id, product, label };
}
type Shop = Awaited<ReturnType<typeof shop>>;

/** A shopper of a shop: an order (through the App API, with an Idempotency-Key) and a review with their e-mail. */
async function shopperAt(s: Shop, who: { name: string; email: string; phone: string; address: string }) {
  const order = await p.request("POST", "/app-api/orders", {
    token: s.token,
    headers: { "Idempotency-Key": `key-${randomBytes(4).toString("hex")}` },
    body: {
      customer: { name: who.name, phone: who.phone, email: who.email },
      items: [{ productId: s.product.id, quantity: 2 }],
      deliveryMethod: "DELIVERY",
      address: who.address,
      paymentMethod: "CASH",
      notes: `Ring twice, ask for ${who.name}`,
    },
  });
  expect(order.status, order.text).toBe(201);
  const review = await createReview(p.db, s.merchant.businessId, s.product.id, {
    rating: 5,
    comment: `Lovely. ${who.name}`,
    authorName: who.name,
    authorEmail: who.email,
  });
  return { orderId: order.json.id as string, orderNumber: order.json.orderNumber as string, reviewId: review.id };
}

async function moveTo(s: Shop, orderId: string, statuses: string[]) {
  for (const status of statuses) {
    const moved = await p.request("PATCH", `/app-api/orders/${orderId}/status`, { token: s.token, body: { status } });
    expect(moved.status, moved.text).toBe(200);
  }
}

const privacy = (s: Shop, body: unknown) =>
  p.request("POST", "/merchant/privacy/requests", { token: s.merchant.token, body });

/** Every text, varchar, json, jsonb and array column of every table of the database, of every schema. */
async function searchEveryTable(needles: string[]) {
  const columns = await p.sql<{ table_schema: string; table_name: string; column_name: string }[]>`
    select c.table_schema, c.table_name, c.column_name
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where t.table_type = 'BASE TABLE'
      and c.table_schema not in ('pg_catalog', 'information_schema')
      and (c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'USER-DEFINED'))`;
  expect(columns.length).toBeGreaterThan(50);
  const found: string[] = [];
  for (const c of columns) {
    const ident = `"${c.table_schema}"."${c.table_name}"`;
    for (const needle of needles) {
      const [row] = await p.sql.unsafe<{ n: number }[]>(
        `select count(*)::int as n from ${ident} where strpos(lower("${c.column_name}"::text), lower($1)) > 0`,
        [needle],
      );
      if (row.n > 0) found.push(`${c.table_schema}.${c.table_name}.${c.column_name} holds ${needle}`);
    }
  }
  return found;
}

/** The installation's webhook secret (installThroughOAuth keeps only the token): read from its install registration. */
async function installSecret(s: Shop) {
  const [reg] = await p.sql<{ secret_enc: string }[]>`
    select secret_enc from webhooks where installation_id = ${s.installationId} and is_install_default`;
  return decrypt(reg.secret_enc, p.env.encryptionKey);
}

const shopA = await shop(`a${randomBytes(3).toString("hex")}`);
const shopB = await shop(`b${randomBytes(3).toString("hex")}`);

describe("customer privacy", () => {
  const zelda = {
    name: "Zelda Quintessa-Marlowe",
    email: "Zelda.Q.Marlowe@Example.test",
    phone: "+1 555 0199 8877",
    address: "42 Wallaby Way, Sydney",
  };

  it("refuses bad input and other callers, and answers 'nothing held' for an unknown e-mail", async () => {
    for (const body of [{ email: "not-an-email", kind: "ERASE" }, { email: "a@b.test", kind: "DELETE" }, {}]) {
      const bad = await privacy(shopA, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.json).toMatchObject({ statusCode: 400, error: "Bad Request" });
    }
    const anonymous = await p.request("POST", "/merchant/privacy/requests", {
      body: { email: "a@b.test", kind: "EXPORT" },
    });
    expect(anonymous.status).toBe(401);
    // a developer reaches only their sandbox's shoppers (decision 036); a reviewer none
    const developer = await p.request("POST", "/merchant/privacy/requests", {
      token: dev.token,
      body: { email: "a@b.test", kind: "EXPORT" },
    });
    expect(developer.status).toBe(201);
    expect(developer.json).toMatchObject({ orders: [], reviews: [] });
    const asReviewer = await p.request("POST", "/merchant/privacy/requests", {
      token: reviewer.token,
      body: { email: "a@b.test", kind: "EXPORT" },
    });
    expect(asReviewer.status).toBe(403);
    for (const kind of ["EXPORT", "ERASE"]) {
      const unknown = await privacy(shopA, { email: "nobody-here@example.test", kind });
      expect(unknown.status).toBe(201);
      expect(unknown.json).toMatchObject({
        kind,
        email: "nobody-here@example.test",
        orders: [],
        reviews: [],
        appsNotified: 0,
      });
    }
  });

  it("exports, refuses to erase while an order is open, erases, tells the app, and no table keeps the shopper", async () => {
    const a = await shopperAt(shopA, zelda);
    const b = await shopperAt(shopB, zelda);

    // export (the e-mail as typed differently: trimmed and in any case)
    const exported = await privacy(shopA, { email: "  ZELDA.q.marlowe@example.TEST ", kind: "EXPORT" });
    expect(exported.status, exported.text).toBe(201);
    expect(exported.json).toMatchObject({
      kind: "EXPORT",
      email: "zelda.q.marlowe@example.test",
      orders: [a.orderId],
      reviews: [a.reviewId],
      appsNotified: 1,
    });
    expect(exported.json.export.orders).toEqual([
      expect.objectContaining({
        id: a.orderId,
        customer: { name: zelda.name, phone: zelda.phone, email: zelda.email },
        address: zelda.address,
        // the merchant's export is exact: money in minor units with its currency
        subtotal: { amount: 2500, currency: "USD" },
        statusHistory: [expect.objectContaining({ to: "PENDING" })],
      }),
    ]);
    expect(exported.json.export.reviews).toEqual([
      expect.objectContaining({ id: a.reviewId, authorName: zelda.name, productName: shopA.product.name }),
    ]);
    expect(exported.json.export.apps).toEqual([expect.objectContaining({ appId: shopA.app.id })]);
    const dataRequest = await eventually(async () => {
      const got = receiver.received.find(
        (r) => r.path === `/${shopA.label}` && r.json?.event === "customer.data_request",
      );
      expect(got).toBeDefined();
      return got!;
    });
    expect(dataRequest.json.data).toEqual({
      requestId: exported.json.id,
      customerEmail: "zelda.q.marlowe@example.test",
      orderIds: [a.orderId],
      reviewIds: [a.reviewId],
    });

    // an open order keeps the shopper: 409 naming it, and nothing changes
    const refused = await privacy(shopA, { email: zelda.email, kind: "ERASE" });
    expect(refused.status).toBe(409);
    expect(refused.json.message).toContain(`#${a.orderNumber} (PENDING)`);
    expect((await p.request("GET", `/app-api/orders/${a.orderId}`, { token: shopA.token })).json.customer.name).toBe(
      zelda.name,
    );

    await moveTo(shopA, a.orderId, ["CONFIRMED", "PREPARING", "READY", "DELIVERED"]);
    const erased = await privacy(shopA, { email: zelda.email, kind: "ERASE" });
    expect(erased.status, erased.text).toBe(201);
    expect(erased.json).toMatchObject({ kind: "ERASE", orders: [a.orderId], reviews: [a.reviewId], appsNotified: 1 });
    expect(erased.json.export).toBeUndefined();

    // the app is told, signed with its installation's secret
    const redact = await eventually(async () => {
      const got = receiver.received.find((r) => r.path === `/${shopA.label}` && r.json?.event === "customer.redact");
      expect(got).toBeDefined();
      return got!;
    });
    expect(verifyWebhook(redact.raw, redact.headers, await installSecret(shopA))).toBe(true);
    expect(redact.json.data).toEqual({
      requestId: erased.json.id,
      customerEmail: "zelda.q.marlowe@example.test",
      orderIds: [a.orderId],
      reviewIds: [a.reviewId],
    });

    // the App API shows only the replaced values; amounts and status stay
    const order = await p.request("GET", `/app-api/orders/${a.orderId}`, { token: shopA.token });
    expect(order.json).toMatchObject({
      status: "DELIVERED",
      subtotal: { amount: 2500, currency: "USD" },
      customer: { name: ERASED_NAME, phone: ERASED_TEXT, email: null },
      address: ERASED_TEXT,
      notes: null,
    });
    const reviews = await p.request("GET", "/app-api/reviews", { token: shopA.token });
    expect(reviews.json.data.find((r: { id: string }) => r.id === a.reviewId)).toMatchObject({
      authorName: ERASED_NAME,
      rating: 5,
      comment: `Lovely. ${ERASED_NAME}`,
    });

    // once the redact delivery is over, no table of the database holds the shopper anywhere
    await eventually(async () => {
      const [d] = await p.sql<{ status: string }[]>`
        select status from webhook_deliveries where event = 'customer.redact' and business_id = ${shopA.merchant.businessId}`;
      expect(d.status).toBe("SUCCEEDED");
    });
    // the other business's shopper with the same e-mail is untouched
    const other = await p.request("GET", `/app-api/orders/${b.orderId}`, { token: shopB.token });
    expect(other.json.customer).toEqual({ name: zelda.name, phone: zelda.phone, email: zelda.email });
    const [otherReview] = await p.sql<{ author_name: string; author_email: string }[]>`
      select author_name, author_email from reviews where id = ${b.reviewId}`;
    expect(otherReview).toEqual({ author_name: zelda.name, author_email: zelda.email });
    // ... so search with shop B's copies out of the way: erase it too (its order is closed first)
    await moveTo(shopB, b.orderId, ["CANCELLED"]);
    expect((await privacy(shopB, { email: zelda.email, kind: "ERASE" })).status).toBe(201);
    await eventually(async () => {
      const rows = await p.sql<{ status: string }[]>`
        select status from webhook_deliveries where event = 'customer.redact' and business_id = ${shopB.merchant.businessId}`;
      expect(rows.map((r) => r.status)).toEqual(["SUCCEEDED"]);
    });
    expect(await searchEveryTable([zelda.email, zelda.name, zelda.phone, zelda.address, "Quintessa"])).toEqual([]);
  });

  it("erases shop A's shopper and leaves shop B's shopper with the same e-mail as they were", async () => {
    const same = {
      name: "Odile Varga-Penhallow",
      email: "odile.vp@example.test",
      phone: "555 3131",
      address: "7 Quay Rd",
    };
    const a = await shopperAt(shopA, same);
    const b = await shopperAt(shopB, same);
    await moveTo(shopA, a.orderId, ["CANCELLED"]);
    await moveTo(shopB, b.orderId, ["CANCELLED"]);
    // shop B's merchant cannot reach shop A's shopper by id either: the request is scoped to the caller's business
    const erased = await privacy(shopA, { email: same.email, kind: "ERASE" });
    expect(erased.json).toMatchObject({ orders: [a.orderId], reviews: [a.reviewId] });
    const [orderB] = await p.sql<{ customer_name: string; customer_email: string }[]>`
      select customer_name, customer_email from orders where id = ${b.orderId}`;
    expect(orderB).toEqual({ customer_name: same.name, customer_email: same.email });
    const exportB = await privacy(shopB, { email: same.email, kind: "EXPORT" });
    expect(exportB.json).toMatchObject({ orders: [b.orderId], reviews: [b.reviewId] });
    expect(exportB.json.export.orders[0].customer.name).toBe(same.name);
  });

  it("identical erasures sent together erase once and each answers the same erasure", async () => {
    const twin = { name: "Ines Thornquist", email: "ines.t@example.test", phone: "555 7777", address: "1 Birch St" };
    const a = await shopperAt(shopA, twin);
    const second = await shopperAt(shopA, twin);
    await moveTo(shopA, a.orderId, ["CANCELLED"]);
    await moveTo(shopA, second.orderId, ["CANCELLED"]);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => privacy(shopA, { email: twin.email, kind: "ERASE" })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(201));
    const ids = new Set(answers.map((r) => r.json.id));
    expect(ids.size).toBe(1);
    for (const r of answers) expect(new Set(r.json.orders)).toEqual(new Set([a.orderId, second.orderId]));
    const [{ n }] = await p.sql<{ n: number }[]>`
      select count(*)::int as n from privacy_requests where id = ${[...ids][0]}`;
    expect(n).toBe(1);
    const deliveries = await p.sql<{ body: string }[]>`
      select body from webhook_deliveries where event = 'customer.redact' and business_id = ${shopA.merchant.businessId}
        and body like ${`%${[...ids][0]}%`}`;
    expect(deliveries).toHaveLength(1);
  });

  it("signs compliance deliveries with the installation's secret, and only apps holding read_orders or read_reviews get them", async () => {
    const got = receiver.received.filter((r) => r.path === `/${shopA.label}` && r.json?.event === "customer.redact");
    expect(got.length).toBeGreaterThan(0);
    const secret = await installSecret(shopA);
    for (const r of got) expect(verifyWebhook(r.raw, r.headers, secret)).toBe(true);

    // an app with read_products only is not told
    const merchant = shopA.merchant;
    const browser = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
    const label = `products${randomBytes(2).toString("hex")}`;
    await installThroughOAuth(
      p,
      { developer: dev, reviewer, merchant: browser },
      appBody({
        scopes: ["read_products"],
        webhookUrl: `${receiver.url}/${label}`,
        webhookEvents: ["product.created"],
      }),
    );
    const someone = { name: "Pax Lindqvist", email: "pax.l@example.test", phone: "555 1212", address: "9 Elm" };
    const o = await shopperAt(shopA, someone);
    const exported = await privacy(shopA, { email: someone.email, kind: "EXPORT" });
    expect(exported.json.appsNotified).toBe(1);
    const [{ n }] = await p.sql<{ n: number }[]>`
      select count(*)::int as n from webhook_deliveries where event like 'customer.%' and body like ${`%${o.orderId}%`}`;
    expect(n).toBe(1);
  });
});

describe("scrubbing text", () => {
  const v = { email: "sam@example.test", names: ["Sam"], phones: ["555 01"], addresses: [], notes: [] };
  it("replaces a name where it stands as a word, the e-mail anywhere in any case, and leaves longer words", () => {
    expect(scrubText("Sam ordered the Sample box; call 555 01 or SAM@Example.TEST.", v)).toBe(
      `${ERASED_NAME} ordered the Sample box; call ${ERASED_TEXT} or ${ERASED_TEXT}.`,
    );
    expect(scrubJson({ customer: { email: "Sam@example.test", name: "Sam" }, n: 3 }, v)).toEqual({
      customer: { email: null, name: ERASED_NAME },
      n: 3,
    });
  });
});
