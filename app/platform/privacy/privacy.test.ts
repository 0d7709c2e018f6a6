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
import { startReceiver, eventually, type Behaviour } from "../testing/receiver";
import { checkPlatformRequest } from "../testing/payload-check";
import { appBody } from "../apps/apps.test-helpers";
import { installThroughOAuth } from "../testing/install";
import { verifyWebhook } from "../outbound/verify";
import { createProduct, createReview, productSchema } from "../catalog/products.server";
import { decrypt } from "../core/crypto.server";
import { answerWithoutErased } from "../core/erased";
import { ERASED_NAME, ERASED_TEXT, scrubBody, scrubJson, scrubText } from "./scrub.server";

const p = await startPlatform({ worker: true });
const receiver = await startReceiver();
const reviewer = await p.createUser("REVIEWER");
const dev = await p.register("DEVELOPER");

/**
 * A merchant with a product and an app (read_orders, write_orders, read_reviews) whose install
 * registration posts to the receiver (`app`: more of the app's fields, its hooks and URL say).
 */
async function shop(label: string, app: Record<string, unknown> = {}) {
  const merchant = await p.register("MERCHANT");
  const browser = await BrowserSession.signIn(p.url, merchant.email, merchant.password);
  const { app: created, token } = await installThroughOAuth(
    p,
    { developer: dev, reviewer, merchant: browser },
    appBody({
      scopes: ["read_orders", "write_orders", "read_reviews"],
      webhookUrl: `${receiver.url}/${label}`,
      webhookEvents: ["order.created", "review.created"],
      ...app,
    }),
  );
  const [inst] = await p.sql<{ id: string }[]>`
    select id from installations where app_id = ${created.id} and business_id = ${merchant.businessId}`;
  const product = await createProduct(
    p.db,
    merchant.businessId,
    productSchema.parse({ name: `Tea ${label}`, slug: `tea-${label}`, price: 1250, category: "Drinks" }),
  );
  return { merchant, browser, token, app: created, installationId: inst.id, product, label };
}
type Shop = Awaited<ReturnType<typeof shop>>;

/** A shopper of a shop: an order (through the App API, with an Idempotency-Key) and a review with their e-mail. */
async function shopperAt(
  s: Shop,
  who: { name: string; email: string; phone: string; address: string },
  paymentMethod = "CASH",
) {
  const order = await p.request("POST", "/app-api/orders", {
    token: s.token,
    headers: { "Idempotency-Key": `key-${randomBytes(4).toString("hex")}` },
    body: {
      customer: { name: who.name, phone: who.phone, email: who.email },
      items: [{ productId: s.product.id, quantity: 2 }],
      deliveryMethod: "DELIVERY",
      address: who.address,
      paymentMethod,
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
  // graphile-worker's own tables (job payloads, failed jobs' last errors) are searched too
  expect(columns.some((c) => c.table_schema === "graphile_worker" && c.column_name === "payload")).toBe(true);
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

const nadia = {
  name: "Nadia Okonkwo-Brandt",
  email: "Nadia.OB@Example.test",
  phone: "+44 20 7946 0321",
  address: "221C Larkspur Mews, Bath",
};
const normalized = nadia.email.toLowerCase();
const json = (body: unknown): Behaviour => ({ status: 200, body: JSON.stringify(body) });
/**
 * The app's server: it echoes every delivery (the body it got is its answer), answers the hooks as a
 * payment and shipping app whose answers quote the shopper (a payment link with their e-mail and name,
 * a QR code with their phone; shipping rates that redirect with the address in the URL), and holds the
 * answer to the review.created that names the shopper for 4 s (still out when the merchant erases).
 */
const echo = await startReceiver((r): Behaviour => {
  switch (r.json?.hookPoint) {
    case "checkout.payment_methods":
      return json({ methods: [{ id: "card", name: "Echo card" }] });
    case "checkout.create_payment":
      return json({
        paymentUrl: `https://pay.example/checkout?email=${normalized}&name=${nadia.name}`,
        qrCode: `PAY:${nadia.phone}`,
        invoiceId: "inv_echo",
      });
    case "checkout.shipping_rates":
      return {
        status: 302,
        headers: { Location: `https://rates.example/quote?to=${nadia.address}&for=${nadia.name}` },
        body: "",
      };
    default: {
      // deliveries, and the other hooks (whose echo is no answer: skipped, fail-open)
      const slow = r.json?.event === "review.created" && r.raw.includes(nadia.name);
      return { status: 200, body: r.raw, ...(slow ? { delayMs: 4000 } : {}) };
    }
  }
});
const hooked = await shop(`echo${randomBytes(3).toString("hex")}`, {
  scopes: ["read_orders", "write_orders", "read_reviews", "write_payments", "write_shipping", "write_checkout"],
  webhookUrl: `${echo.url}/echo`,
  webhookEvents: ["order.created", "order.status_changed", "review.created"],
  manifest: {
    hooks: [
      { hookPoint: "checkout.payment_methods", url: "/hooks/methods" },
      { hookPoint: "checkout.create_payment", url: "/hooks/pay" },
      { hookPoint: "checkout.shipping_rates", url: "/hooks/ship" },
      { hookPoint: "order.validate", url: "/hooks/validate" },
    ],
  },
});

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

describe("an erasure leaves no copy (issue 39)", () => {
  const deliveriesOver = (businessId: string) =>
    eventually(async () => {
      const rows = await p.sql<{ event: string; status: string }[]>`
        select event, status from webhook_deliveries where business_id = ${businessId}`;
      expect(rows.filter((r) => r.status !== "SUCCEEDED")).toEqual([]);
      return rows;
    }, 30_000);

  it("with an echoing receiver and a checkout that called the app's hooks, no table keeps the e-mail, name, phone or address", async () => {
    const a = await shopperAt(hooked, nadia, `${hooked.app.slug}:card`);
    // the checkout called the hooks with the shopper's address, and the payment app's answer quoted them
    const ship = echo.received.find((r) => r.json?.hookPoint === "checkout.shipping_rates");
    expect(ship?.json.data.locality).toBe(nadia.address);
    const [placed] = await p.sql<{ payment_url: string; payment_qr_code: string }[]>`
      select payment_url, payment_qr_code from orders where id = ${a.orderId}`;
    expect(placed.payment_url).toContain(normalized);
    expect(placed.payment_qr_code).toContain(nadia.phone);
    const [logged] = await p.sql<{ error: string }[]>`
      select error from hook_calls where installation_id = ${hooked.installationId} and hook_point = 'checkout.shipping_rates'`;
    expect(logged.error).toContain(nadia.address);

    // an export: its customer.data_request is echoed too
    const exported = await privacy(hooked, { email: nadia.email, kind: "EXPORT" });
    expect(exported.status, exported.text).toBe(201);
    await moveTo(hooked, a.orderId, ["CONFIRMED", "PREPARING", "READY", "DELIVERED"]);
    await deliveriesOver(hooked.merchant.businessId);

    // a second review names the shopper; its delivery is still out (the app answers in 4 s) when the merchant erases
    await createReview(p.db, hooked.merchant.businessId, hooked.product.id, {
      rating: 4,
      comment: `Again lovely, thanks from ${nadia.name}`,
      authorName: nadia.name,
      authorEmail: nadia.email,
    });
    await eventually(async () =>
      expect(
        echo.received.filter((r) => r.json?.event === "review.created" && r.raw.includes(nadia.name)),
      ).toHaveLength(2),
    );
    const erased = await privacy(hooked, { email: nadia.email, kind: "ERASE" });
    expect(erased.status, erased.text).toBe(201);
    const [out] = await p.sql<{ status: string }[]>`
      select status from webhook_deliveries where business_id = ${hooked.merchant.businessId}
        and event = 'review.created' order by created_at desc limit 1`;
    expect(out.status).not.toBe("SUCCEEDED");

    // the customer.redact is echoed (the e-mail comes back in the answer, recorded after the scrub ran)
    const redact = await eventually(async () => {
      const got = echo.received.find((r) => r.json?.event === "customer.redact");
      expect(got).toBeDefined();
      return got!;
    });
    expect(redact.json.data.customerEmail).toBe(normalized);
    await deliveriesOver(hooked.merchant.businessId);

    // the answers are kept, without the shopper: the redact's echo and the late echo of the old review body
    const answers = await p.sql<{ event: string; response_excerpt: string | null }[]>`
      select d.event, a.response_excerpt from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
      where d.business_id = ${hooked.merchant.businessId} and d.event in ('customer.redact', 'review.created')
      order by a.created_at`;
    const redactAnswer = answers.find((x) => x.event === "customer.redact")!;
    expect(redactAnswer.response_excerpt).toContain(erased.json.id);
    // (soft: every copy that is left is reported, not only the first)
    expect.soft(redactAnswer.response_excerpt).toContain(`"customerEmail":"${ERASED_TEXT}"`);
    const lateAnswer = answers[answers.length - 1];
    expect(lateAnswer.event).toBe("review.created");
    expect.soft(lateAnswer.response_excerpt).toContain(ERASED_TEXT);
    expect.soft(lateAnswer.response_excerpt).not.toContain(nadia.name);

    // a redelivered customer.data_request matches its declared schema: the e-mail is "[erased]", not null
    const dataRequest = echo.received.find((r) => r.json?.event === "customer.data_request")!;
    const registration = await p.request("GET", "/webhooks", { token: hooked.token });
    const install = registration.json.data.find((w: { id: string }) => w.id === dataRequest.json.webhookId);
    const before = echo.received.length;
    const again = await p.request("POST", `/webhooks/${install.id}/deliveries/${dataRequest.json.id}/redeliver`, {
      token: hooked.token,
    });
    expect(again.status, again.text).toBe(202);
    const resent = await eventually(async () => {
      const got = echo.received.slice(before).find((r) => r.json?.event === "customer.data_request");
      expect(got).toBeDefined();
      return got!;
    });
    expect.soft(checkPlatformRequest(resent.headers, resent.raw)).toEqual([]);
    expect.soft(resent.json.data).toEqual({
      requestId: exported.json.id,
      customerEmail: ERASED_TEXT,
      orderIds: [a.orderId],
      reviewIds: exported.json.reviews,
    });
    await eventually(async () => {
      const [{ n }] = await p.sql<{ n: number }[]>`
        select count(*)::int as n from webhook_attempts where delivery_id = ${dataRequest.json.id}`;
      expect(n).toBe(2);
    });

    // the payment link and QR code are gone with the rest; amounts and statuses stay
    const [order] = await p.sql<{ payment_url: string | null; payment_qr_code: string | null; amount: number }[]>`
      select payment_url, payment_qr_code, amount from orders where id = ${a.orderId}`;
    expect.soft(order).toMatchObject({ payment_url: null, payment_qr_code: null });
    expect(order.amount).toBeGreaterThan(0);
    const apiOrder = await p.request("GET", `/app-api/orders/${a.orderId}`, { token: hooked.token });
    expect(apiOrder.json).toMatchObject({
      status: "DELIVERED",
      customer: { name: ERASED_NAME, phone: ERASED_TEXT, email: null },
    });

    // every text and JSON column of every table, graphile-worker's included: nothing but the request's own record
    expect.soft(await searchEveryTable([nadia.email, nadia.name, nadia.phone, nadia.address])).toEqual([]);
    const [record] = await p.sql<
      { order_ids: string[] }[]
    >`select order_ids from privacy_requests where id = ${erased.json.id}`;
    expect(record.order_ids).toEqual([a.orderId]);
  });

  it("the admin finds a shopper by a POST with its CSRF token, never by an e-mail in the URL", async () => {
    const who = { name: "Ottilie Brennagh", email: "ottilie.b@example.test", phone: "555 4040", address: "3 Gull Row" };
    const a = await shopperAt(shopA, who);
    const browser = shopA.browser;
    // the page's text as a person reads it (React's SSR separates text parts with empty comments)
    const text = (html: string) => html.replace(/<!-- -->/g, "");
    // an e-mail in the query string is not a search
    const byUrl = await browser.get(`/admin/privacy?email=${encodeURIComponent(who.email)}`);
    expect(byUrl.status).toBe(200);
    expect(text(byUrl.html)).not.toContain(`${who.email}: 1 order`);
    expect(text(byUrl.html)).not.toContain('data-testid="privacy-order"');
    // the page's search form posts
    expect(byUrl.html).toMatch(/<form method="post"[^>]*role="search"/);
    const found = await browser.post("/admin/privacy", { intent: "find", email: ` ${who.email.toUpperCase()} ` });
    expect(found.status).toBe(200);
    expect(text(found.html)).toContain(`${who.email}: 1 order, 1 review`);
    expect(text(found.html)).toContain(`#${a.orderNumber}`);
    const invalid = await browser.post("/admin/privacy", { intent: "find", email: "not-an-email" });
    expect(invalid.status).toBe(400);
    expect(text(invalid.html)).toContain("Enter an e-mail address");
    // without the form's token: refused
    const forged = await fetch(`${p.url}/admin/privacy`, {
      method: "POST",
      body: new URLSearchParams({ intent: "find", email: who.email }),
      headers: { Cookie: browser.cookieHeader(browser.urlOf("/admin/privacy")), Origin: p.url },
      redirect: "manual",
    });
    expect(forged.status).toBe(403);
    expect(await forged.text()).not.toContain(`${who.email}: 1 order`);
    // an erasure refused for an open order shows the message with the shopper still listed
    const refused = await browser.post("/admin/privacy", { intent: "erase", email: who.email });
    expect(refused.status).toBe(409);
    expect(text(refused.html)).toContain(`#${a.orderNumber} (PENDING)`);
    expect(text(refused.html)).toContain(`${who.email}: 1 order, 1 review`);
    // once closed, erased: the page comes back with the request's id in the URL, not the e-mail
    await moveTo(shopA, a.orderId, ["CANCELLED"]);
    const done = await browser.post("/admin/privacy", { intent: "erase", email: who.email });
    expect(done.status).toBe(302);
    expect(done.location).toMatch(/^\/admin\/privacy\?done=prv_/);
    expect(done.location).not.toContain("ottilie");
    const page = await browser.get(done.location!);
    expect(text(page.html)).toContain("Erased: 1 order and 1 review");
    // the merchant API's JSON is unchanged
    const again = await privacy(shopA, { email: who.email, kind: "EXPORT" });
    expect(again.status).toBe(201);
    expect(again.json).toMatchObject({ kind: "EXPORT", orders: [], reviews: [] });
  });
});

describe("storefront-apps trigger customer.redact and customer.data_request", () => {
  it("a triggered customer.redact erases for real the order it names; a triggered data_request sends the latest shopper", async () => {
    const developer = await p.register("DEVELOPER");
    const devReceiver = await startReceiver();
    const created = await p.request("POST", "/developer/apps", {
      token: developer.token,
      body: appBody({
        scopes: ["read_orders", "write_orders", "read_reviews"],
        webhookUrl: `${devReceiver.url}/webhooks`,
        webhookEvents: ["order.created"],
      }),
    });
    expect(created.status, created.text).toBe(201);
    const inst = await p.request("POST", `/developer/apps/${created.json.id}/test-install`, { token: developer.token });
    expect(inst.status, inst.text).toBe(201);
    const token = inst.json.accessToken as string;

    const triggered = await p.request("POST", `/developer/apps/${created.json.id}/trigger`, {
      token: developer.token,
      body: { event: "customer.redact" },
    });
    expect(triggered.status, triggered.text).toBe(202);
    expect(triggered.json.object).toMatchObject({ kind: "order" });
    const orderId = triggered.json.object.id as string;
    await devReceiver.waitFor(1);
    const [got] = devReceiver.received;
    expect(got.json.event).toBe("customer.redact");
    expect(checkPlatformRequest(got.headers, got.raw)).toEqual([]);
    expect(got.json.data).toMatchObject({ orderIds: [orderId], reviewIds: [] });
    expect(got.json.data.customerEmail).toMatch(/^erase-.+@example\.test$/);
    // the order it names is erased: the App API shows the replaced values, amounts and status stay
    const order = await p.request("GET", `/app-api/orders/${orderId}`, { token });
    expect(order.status).toBe(200);
    expect(order.json).toMatchObject({
      status: "DELIVERED",
      customer: { name: ERASED_NAME, phone: ERASED_TEXT, email: null },
      address: ERASED_TEXT,
      notes: null,
    });
    expect(order.json.amount.amount).toBeGreaterThan(0);
    // recorded in the sandbox's privacy requests, like the merchant's erasure
    const [record] = await p.sql<{ kind: string; order_ids: string[]; apps_notified: number }[]>`
      select kind, order_ids, apps_notified from privacy_requests where business_id = ${developer.businessId}`;
    expect(record).toEqual({ kind: "ERASE", order_ids: [orderId], apps_notified: 1 });
    // nothing of that shopper is left anywhere
    await eventually(async () => {
      const [d] = await p.sql<{ status: string }[]>`
        select status from webhook_deliveries where id = ${got.json.id}`;
      expect(d.status).toBe("SUCCEEDED");
    });
    expect(await searchEveryTable([got.json.data.customerEmail])).toEqual([]);

    // customer.data_request: the sandbox's latest shopper with an e-mail, sent only, nothing changed
    const shopper = await p.request("POST", "/app-api/orders", {
      token,
      body: {
        customer: { name: "Sample Sam", phone: "555 0000", email: "sam.sample@example.test" },
        items: [
          {
            productId: (
              await p.sql<
                { id: string }[]
              >`select id from products where business_id = ${developer.businessId} and stock is null and is_available limit 1`
            )[0].id,
            quantity: 1,
          },
        ],
        deliveryMethod: "PICKUP",
        paymentMethod: "CASH",
      },
    });
    expect(shopper.status, shopper.text).toBe(201);
    const asked = await p.request("POST", `/developer/apps/${created.json.id}/trigger`, {
      token: developer.token,
      body: { event: "customer.data_request" },
    });
    expect(asked.status, asked.text).toBe(202);
    const request = await eventually(async () => {
      const got = devReceiver.received.find((r) => r.json?.event === "customer.data_request");
      expect(got).toBeDefined();
      return got!;
    });
    expect(request.json.data).toMatchObject({ customerEmail: "sam.sample@example.test", orderIds: [shopper.json.id] });
    const still = await p.request("GET", `/app-api/orders/${shopper.json.id}`, { token });
    expect(still.json.customer.email).toBe("sam.sample@example.test");
  });
});

/**
 * `storefront-apps listen` as the CLI runs it: the listen stream of the app, each call answered with
 * the body it carried (an echoing local server). Stops when `stop` is aborted.
 */
async function echoListener(appId: string, token: string, stop: AbortSignal, calls: string[]) {
  const res = await fetch(`${p.url}/developer/apps/${appId}/listen`, {
    headers: { Authorization: `Bearer ${token}`, Accept: "text/event-stream" },
    signal: stop,
  });
  expect(res.status).toBe(200);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let ready!: () => void;
  const isReady = new Promise<void>((r) => (ready = r));
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(message)?.[1];
          const data = message
            .split("\n")
            .filter((l) => l.startsWith("data: "))
            .map((l) => l.slice(6))
            .join("\n");
          if (event === "ready") ready();
          if (event !== "call") continue;
          const call = JSON.parse(data) as { callId: string; body: string };
          calls.push(call.body);
          await fetch(`${p.url}/developer/apps/${appId}/listen/${call.callId}/answer`, {
            method: "POST",
            headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
            body: JSON.stringify({ status: 200, body: call.body }),
          });
        }
      }
    } catch {
      // stopped
    }
  })();
  await isReady;
}

describe("storefront-apps listen: a relayed customer.redact", () => {
  it("keeps the local server's echo without the e-mail, and no relayed call is left", async () => {
    const developer = await p.register("DEVELOPER");
    const created = await p.request("POST", "/developer/apps", {
      token: developer.token,
      body: appBody({
        scopes: ["read_orders"],
        webhookUrl: "https://relay-only.example/webhooks",
        webhookEvents: ["order.created"],
      }),
    });
    expect(
      (await p.request("POST", `/developer/apps/${created.json.id}/test-install`, { token: developer.token })).status,
    ).toBe(201);
    const stop = new AbortController();
    try {
      const calls: string[] = [];
      await echoListener(created.json.id, developer.token, stop.signal, calls);
      const triggered = await p.request("POST", `/developer/apps/${created.json.id}/trigger`, {
        token: developer.token,
        body: { event: "customer.redact" },
      });
      expect(triggered.status, triggered.text).toBe(202);
      const deliveryId = triggered.json.deliveries[0].id as string;
      const attempt = await eventually(async () => {
        const [row] = await p.sql<{ response_excerpt: string; status: string }[]>`
          select a.response_excerpt, d.status from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
          where a.delivery_id = ${deliveryId}`;
        expect(row?.status).toBe("SUCCEEDED");
        return row;
      });
      // the echo came back through the relay and is kept, without the address
      expect(attempt.response_excerpt).toContain(deliveryId);
      expect(attempt.response_excerpt).toContain(`"customerEmail":"${ERASED_TEXT}"`);
      expect(attempt.response_excerpt).not.toMatch(/erase-[a-z0-9]+@example\.test/);
      const [{ n }] = await p.sql<{ n: number }[]>`
        select count(*)::int as n from relay_calls where app_id = ${created.json.id}`;
      expect(n).toBe(0);
      const relayedEmail = JSON.parse(calls[0]).data.customerEmail as string;
      expect(relayedEmail).toMatch(/^erase-/);
      expect(await searchEveryTable([relayedEmail])).toEqual([]);
    } finally {
      stop.abort();
    }
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
  it("keeps customerEmail a string in a compliance body, and an answer to a rewritten body without what was taken out", () => {
    const body = (email: string) =>
      JSON.stringify({
        id: "dlv_1",
        event: "customer.data_request",
        data: { requestId: "prv_1", customerEmail: email },
      });
    expect(JSON.parse(scrubBody(body("sam@example.test"), v)).data.customerEmail).toBe(ERASED_TEXT);
    // another event keeps null for the whole e-mail (nullable fields)
    expect(
      JSON.parse(scrubBody(JSON.stringify({ event: "x", data: { email: "sam@example.test" } }), v)).data.email,
    ).toBe(null);
    const sent = JSON.stringify({ data: { authorName: "Sam Okafor", note: "Tür 3", rating: 5 } });
    const stored = JSON.stringify({ data: { authorName: ERASED_NAME, note: null, rating: 5 } });
    expect(answerWithoutErased(sent, stored, `{"got":{"authorName":"SAM OKAFOR","note":"T\\u00fcr 3"}}`)).toBe(
      `{"got":{"authorName":"${ERASED_TEXT}","note":"${ERASED_TEXT}"}}`,
    );
    expect(answerWithoutErased(sent, sent, "Sam Okafor")).toBe("Sam Okafor");
    expect(answerWithoutErased(sent, "not json", "Sam Okafor")).toBe(null);
  });
});
