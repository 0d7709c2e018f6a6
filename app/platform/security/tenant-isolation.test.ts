/**
 * Tenant isolation: every endpoint and page that takes an id answers 404 for the id of another
 * tenant's object (another developer's app, another business's product, order, page or installation,
 * another installation's webhook or delivery) and changes nothing. Each refusal is checked against
 * the owner's view afterwards; each family also has a positive control, so that a 404 for every
 * request (a broken route) would fail the test.
 */
import { describe, expect, it } from "vitest";
import { and, count, eq, sql } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { BrowserSession, hiddenFields } from "../testing/browser";
import { startReceiver } from "../testing/receiver";
import { appBody } from "../apps/apps.test-helpers";
import { REVIEW_CRITERIA_KEYS, SCOPE_NAMES } from "../shapes/app-catalog";
import { createProduct, productSchema } from "../catalog/products.server";
import { savePage } from "../extensions/merchant.server";
import { newId } from "../core/ids.server";
import {
  apps,
  embedSettings,
  installations,
  orders,
  products,
  reviews,
  webhookDeliveries,
  webhooks,
} from "../../../db/schema";
import { orderToken } from "../core/order-link.server";
import { chatEmbed, starsBlock } from "../testing/manifests";

const p = await startPlatform();
const PASSWORD = "correct horse battery";
const receiver = await startReceiver({ status: 200 });
const reviewer = await p.createUser("REVIEWER");

type Res = Awaited<ReturnType<typeof p.request>>;

/** A refusal as the contract says: 404 with the JSON error body. */
function expectNotFound(res: Res, what: string) {
  expect(res.status, `${what}: ${res.text.slice(0, 200)}`).toBe(404);
  expect(res.json, what).toMatchObject({ statusCode: 404, error: "Not Found", message: expect.any(String) });
}

const random = () => Math.random().toString(36).slice(2, 10);

// ---- two developers, each with a test install of an app with every scope on their sandbox ----
async function developerWithApp() {
  const dev = await p.register("DEVELOPER");
  const created = await p.request("POST", "/developer/apps", {
    token: dev.token,
    body: appBody({ scopes: SCOPE_NAMES, webhookUrl: `${receiver.url}/hooks`, webhookEvents: [] }),
  });
  expect(created.status, created.text).toBe(201);
  const inst = await p.request("POST", `/developer/apps/${created.json.id}/test-install`, { token: dev.token });
  expect(inst.status, inst.text).toBe(201);
  const [order] = await p.db
    .select()
    .from(orders)
    .where(and(eq(orders.businessId, dev.businessId), eq(orders.status, "PENDING")))
    .limit(1);
  const [product] = await p.db.select().from(products).where(eq(products.businessId, dev.businessId)).limit(1);
  const [review] = await p.db.select().from(reviews).where(eq(reviews.businessId, dev.businessId)).limit(1);
  // a product slug and a page that exist only in this business
  const own = await createProduct(
    p.db,
    dev.businessId,
    productSchema.parse({ name: "Only here", slug: `only-${random()}`, price: 500 }),
  );
  const pageSlug = `private-${random()}`;
  await savePage(p.db, dev.businessId, pageSlug, { title: "Private page", isPublished: false, blocks: [] });
  const webhook = await p.request("POST", "/webhooks", {
    token: inst.json.accessToken,
    body: { url: `${receiver.url}/registered`, events: ["order.created"], description: "mine" },
  });
  expect(webhook.status, webhook.text).toBe(201);
  // a delivery in the webhook's log
  const deliveryId = newId("dlv");
  await p.db.insert(webhookDeliveries).values({
    id: deliveryId,
    eventId: newId("evt"),
    event: "order.created",
    webhookId: webhook.json.id,
    installationId: inst.json.installationId,
    appId: created.json.id,
    businessId: dev.businessId,
    isTestInstall: true,
    body: JSON.stringify({ id: deliveryId, event: "order.created", data: {} }),
    status: "SUCCEEDED",
    attempts: 1,
  });
  return {
    ...dev,
    appId: created.json.id as string,
    appToken: inst.json.accessToken as string,
    installationId: inst.json.installationId as string,
    order,
    product,
    review,
    own,
    pageSlug,
    webhookId: webhook.json.id as string,
    deliveryId,
  };
}

const A = await developerWithApp();
const B = await developerWithApp();

// ---- two merchants with OAuth installs of one published app that has settings, an embed, a block and an admin page ----
const publisher = await p.register("DEVELOPER");
const manifest = {
  settingsSchema: { type: "object", properties: { greeting: { type: "string" } } },
  blocks: [starsBlock()],
  embeds: [chatEmbed({ settingsSchema: { type: "object", properties: { color: { type: "string" } } } })],
  adminPages: [{ pageId: "dashboard", title: "Dashboard", renderUrl: "https://app.example/admin" }],
};
const published = await (async () => {
  const created = await p.request("POST", "/developer/apps", {
    token: publisher.token,
    body: appBody({ scopes: ["read_business", "read_pages"], manifest }),
  });
  expect(created.status, created.text).toBe(201);
  await p.request("POST", `/developer/apps/${created.json.id}/submit`, { token: publisher.token });
  const approved = await p.request("POST", `/review/apps/${created.json.id}/approve`, {
    token: reviewer.token,
    body: { criteria: REVIEW_CRITERIA_KEYS },
  });
  expect(approved.json.status).toBe("APPROVED");
  return created.json as { id: string; clientId: string; redirectUrl: string };
})();

async function merchantWithInstall() {
  const m = await p.register("MERCHANT");
  const browser = await BrowserSession.signIn(p.url, m.email, PASSWORD);
  const consent = await browser.get(
    `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: published.clientId, redirect_uri: published.redirectUrl, state: "s" })}`,
  );
  expect(consent.status, consent.html.slice(0, 300)).toBe(200);
  const approve = await browser.post("/oauth/authorize", { ...hiddenFields(consent.html), decision: "approve" });
  expect(approve.status).toBe(302);
  const list = await p.request("GET", "/merchant/installations", { token: m.token });
  const installationId = list.json.data[0].installationId as string;
  expect(
    (
      await p.request("PUT", `/merchant/installations/${installationId}/settings`, {
        token: m.token,
        body: { greeting: "hello" },
      })
    ).status,
  ).toBe(200);
  expect(
    (
      await p.request("PUT", `/merchant/installations/${installationId}/embeds/chat`, {
        token: m.token,
        body: { enabled: true, settings: { color: "red" } },
      })
    ).status,
  ).toBe(200);
  const pageSlug = `only-${random()}`;
  expect(
    (
      await p.request("PUT", `/merchant/pages/${pageSlug}`, {
        token: m.token,
        body: { title: "Secret plans", isPublished: false, blocks: [] },
      })
    ).status,
  ).toBe(200);
  const [business] = await p.db.execute<{ slug: string }>(sql`select slug from businesses where id = ${m.businessId}`);
  return { ...m, browser, installationId, pageSlug, slug: business.slug };
}

const MA = await merchantWithInstall();
const MB = await merchantWithInstall();

// ---- what the owners see, read before and after each attack ----
const orderState = async (id: string) =>
  (
    await p.db
      .select({ status: orders.status, paymentStatus: orders.paymentStatus, updatedAt: orders.updatedAt })
      .from(orders)
      .where(eq(orders.id, id))
  )[0];
const appRow = async (id: string) => (await p.db.select().from(apps).where(eq(apps.id, id)))[0];
const installationRow = async (id: string) =>
  (await p.db.select().from(installations).where(eq(installations.id, id)))[0];
const webhookRow = async (id: string) => (await p.db.select().from(webhooks).where(eq(webhooks.id, id)))[0];
const embedRows = async (installationId: string) =>
  p.db.select().from(embedSettings).where(eq(embedSettings.installationId, installationId));
const pageRow = p.pageRow;
const deliverJobs = async () =>
  Number(
    (
      await p.db.execute<{ n: number }>(
        sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'webhook__deliver'`,
      )
    )[0].n,
  );
const installationsOf = async (appId: string, businessId: string) =>
  (
    await p.db
      .select({ n: count() })
      .from(installations)
      .where(and(eq(installations.appId, appId), eq(installations.businessId, businessId)))
  )[0].n;

describe("App API: another business's ids", () => {
  it("reads: products by id and slug, orders and pages of another business answer 404", async () => {
    // positive controls: the caller's own objects are there
    expect((await p.request("GET", `/app-api/products/${A.product.id}`, { token: A.appToken })).status).toBe(200);
    expect((await p.request("GET", `/app-api/products/slug/${A.own.slug}`, { token: A.appToken })).status).toBe(200);
    expect((await p.request("GET", `/app-api/orders/${A.order.id}`, { token: A.appToken })).status).toBe(200);
    expect((await p.request("GET", `/app-api/pages/${A.pageSlug}`, { token: A.appToken })).status).toBe(200);

    expectNotFound(await p.request("GET", `/app-api/products/${B.product.id}`, { token: A.appToken }), "product by id");
    expectNotFound(
      await p.request("GET", `/app-api/products/${B.own.id}`, { token: A.appToken }),
      "product by id (unique)",
    );
    expectNotFound(
      await p.request("GET", `/app-api/products/slug/${B.own.slug}`, { token: A.appToken }),
      "product by slug",
    );
    expectNotFound(await p.request("GET", `/app-api/orders/${B.order.id}`, { token: A.appToken }), "order");
    expectNotFound(await p.request("GET", `/app-api/pages/${B.pageSlug}`, { token: A.appToken }), "page");
  });

  it("writes: a status move or a payment report on another business's order is 404 and changes nothing", async () => {
    const before = await orderState(B.order.id);
    expectNotFound(
      await p.request("PATCH", `/app-api/orders/${B.order.id}/status`, {
        token: A.appToken,
        body: { status: "CONFIRMED" },
      }),
      "status",
    );
    expectNotFound(
      await p.request("POST", `/app-api/orders/${B.order.id}/payment`, {
        token: A.appToken,
        body: { status: "COMPLETED", invoiceId: "inv_1" },
      }),
      "payment",
    );
    expect(await orderState(B.order.id)).toEqual(before);
    const owner = await p.request("GET", `/app-api/orders/${B.order.id}`, { token: B.appToken });
    expect(owner.json).toMatchObject({ status: "PENDING", paymentStatus: before.paymentStatus });
    // positive control: the same move on the caller's own order works
    const own = await p.request("PATCH", `/app-api/orders/${A.order.id}/status`, {
      token: A.appToken,
      body: { status: "CONFIRMED" },
    });
    expect(own.status, own.text).toBe(200);
  });
});

describe("/webhooks: another installation's ids", () => {
  it("GET, PATCH, DELETE, deliveries, redeliver and test answer 404 and change nothing", async () => {
    const before = await webhookRow(B.webhookId);
    const jobs = await deliverJobs();
    const received = receiver.received.length;

    expectNotFound(await p.request("GET", `/webhooks/${B.webhookId}`, { token: A.appToken }), "GET");
    expectNotFound(
      await p.request("PATCH", `/webhooks/${B.webhookId}`, {
        token: A.appToken,
        body: { url: "https://attacker.example/steal", isActive: false },
      }),
      "PATCH",
    );
    expectNotFound(await p.request("DELETE", `/webhooks/${B.webhookId}`, { token: A.appToken }), "DELETE");
    expectNotFound(await p.request("GET", `/webhooks/${B.webhookId}/deliveries`, { token: A.appToken }), "deliveries");
    expectNotFound(
      await p.request("POST", `/webhooks/${B.webhookId}/deliveries/${B.deliveryId}/redeliver`, { token: A.appToken }),
      "redeliver",
    );
    // the caller's own webhook with another installation's delivery id
    expectNotFound(
      await p.request("POST", `/webhooks/${A.webhookId}/deliveries/${B.deliveryId}/redeliver`, { token: A.appToken }),
      "redeliver (own webhook, foreign delivery)",
    );
    expectNotFound(await p.request("POST", `/webhooks/${B.webhookId}/test`, { token: A.appToken }), "test");

    expect(await webhookRow(B.webhookId)).toEqual(before);
    expect(await deliverJobs()).toBe(jobs);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received.length).toBe(received);
    const owner = await p.request("GET", `/webhooks/${B.webhookId}`, { token: B.appToken });
    expect(owner.json).toMatchObject({ id: B.webhookId, url: `${receiver.url}/registered`, isActive: true });
    expect((await p.request("GET", `/webhooks/${B.webhookId}/deliveries`, { token: B.appToken })).json.total).toBe(1);
    // positive control: the owner can redeliver
    expect(
      (await p.request("POST", `/webhooks/${B.webhookId}/deliveries/${B.deliveryId}/redeliver`, { token: B.appToken }))
        .status,
    ).toBe(202);
    expect(await deliverJobs()).toBe(jobs + 1);
  });

  it("lists only the caller's own registrations", async () => {
    const list = await p.request("GET", "/webhooks", { token: A.appToken });
    expect(list.json.data.map((w: { id: string }) => w.id)).not.toContain(B.webhookId);
  });
});

describe("developer endpoints: another developer's app", () => {
  it("every endpoint answers 404 and changes nothing", async () => {
    const before = await appRow(B.appId);
    const ownerView = (await p.request("GET", `/developer/apps/${B.appId}`, { token: B.token })).json;
    const calls: [string, string, unknown?][] = [
      ["GET", `/developer/apps/${B.appId}`],
      ["PATCH", `/developer/apps/${B.appId}`, { name: "Hijacked", redirectUrl: "https://attacker.example/cb" }],
      [
        "PUT",
        `/developer/apps/${B.appId}/manifest`,
        { blocks: [{ blockType: "evil", name: "Evil", renderUrl: "https://attacker.example/x" }] },
      ],
      ["PUT", `/developer/apps/${B.appId}/manifest?dryRun=true`, { blocks: [] }],
      ["POST", `/developer/apps/${B.appId}/submit`],
      ["POST", `/developer/apps/${B.appId}/client-secret`],
      ["POST", `/developer/apps/${B.appId}/test-install`],
      ["GET", `/developer/apps/${B.appId}/test-status`],
      ["POST", `/developer/apps/${B.appId}/test-uninstall`],
      ["GET", `/developer/apps/${B.appId}/analytics`],
    ];
    for (const [method, path, body] of calls) {
      const res = await p.request(method, path, { token: A.token, body });
      expectNotFound(res, `${method} ${path}`);
      expect(res.text).not.toContain(B.appId.slice(4));
    }
    expect(await appRow(B.appId)).toEqual(before);
    expect((await p.request("GET", `/developer/apps/${B.appId}`, { token: B.token })).json).toEqual(ownerView);
    // B's test install is still there; A's sandbox did not get B's app
    expect((await p.request("GET", `/developer/apps/${B.appId}/test-status`, { token: B.token })).json).toMatchObject({
      installed: true,
    });
    expect((await p.request("GET", "/app-api/business", { token: B.appToken })).status).toBe(200);
    expect(await installationsOf(B.appId, A.businessId)).toBe(0);
    // the list shows only the caller's apps
    const list = await p.request("GET", "/developer/apps", { token: A.token });
    expect(list.json.data.map((a: { id: string }) => a.id)).toEqual([A.appId]);
    // positive control: the owner reaches every endpoint
    expect((await p.request("GET", `/developer/apps/${B.appId}/analytics`, { token: B.token })).status).toBe(200);
  });
});

describe("merchant endpoints: another business's installation and pages", () => {
  it("uninstall, consent, settings and embeds answer 404 and change nothing", async () => {
    const installation = await installationRow(MB.installationId);
    const embeds = await embedRows(MB.installationId);
    expectNotFound(
      await p.request("DELETE", `/merchant/installations/${MB.installationId}`, { token: MA.token }),
      "uninstall",
    );
    expectNotFound(
      await p.request("POST", `/merchant/installations/${MB.installationId}/consent`, { token: MA.token }),
      "consent",
    );
    expectNotFound(
      await p.request("PUT", `/merchant/installations/${MB.installationId}/settings`, {
        token: MA.token,
        body: { greeting: "pwned" },
      }),
      "settings",
    );
    expectNotFound(
      await p.request("PUT", `/merchant/installations/${MB.installationId}/embeds/chat`, {
        token: MA.token,
        body: { enabled: false, settings: { color: "black" } },
      }),
      "embeds",
    );
    // a developer's sandbox installation is another business's too
    expectNotFound(
      await p.request("DELETE", `/merchant/installations/${B.installationId}`, { token: MA.token }),
      "uninstall (sandbox)",
    );

    expect(await installationRow(MB.installationId)).toEqual(installation);
    expect(await embedRows(MB.installationId)).toEqual(embeds);
    const owner = await p.request("GET", "/merchant/installations", { token: MB.token });
    expect(owner.json.data[0]).toMatchObject({ installationId: MB.installationId, status: "ACTIVE" });
    expect((await installationRow(B.installationId)).status).toBe("ACTIVE");
    // the list shows only the merchant's own installations
    const mine = await p.request("GET", "/merchant/installations", { token: MA.token });
    expect(mine.json.data.map((i: { installationId: string }) => i.installationId)).toEqual([MA.installationId]);
    // positive control: the merchant's own installation takes the same calls
    expect(
      (
        await p.request("PUT", `/merchant/installations/${MA.installationId}/embeds/chat`, {
          token: MA.token,
          body: { enabled: false },
        })
      ).status,
    ).toBe(200);
  });

  it("a page that exists only in another business is 404, and writing that slug never touches it", async () => {
    expectNotFound(await p.request("GET", `/merchant/pages/${MB.pageSlug}`, { token: MA.token }), "page");
    const before = await pageRow(MB.businessId, MB.pageSlug);
    // PUT creates the slug in the caller's own business (contract 4), never in another one
    const put = await p.request("PUT", `/merchant/pages/${MB.pageSlug}`, {
      token: MA.token,
      body: { title: "Mine now", isPublished: true, blocks: [] },
    });
    expect(put.status).toBe(200);
    expect(await pageRow(MB.businessId, MB.pageSlug)).toEqual(before);
    expect((await p.request("GET", `/merchant/pages/${MB.pageSlug}`, { token: MB.token })).json).toMatchObject({
      title: "Secret plans",
      isPublished: false,
    });
    const list = await p.request("GET", "/merchant/pages", { token: MA.token });
    expect(list.json.data.map((pg: { id: string }) => pg.id)).not.toContain(before.id);
  });
});

describe("reviewer-only endpoints", () => {
  it("refuse developers and merchants with 403 and change nothing", async () => {
    const pending = await p.request("POST", "/developer/apps", { token: A.token, body: appBody() });
    await p.request("POST", `/developer/apps/${pending.json.id}/submit`, { token: A.token });
    const before = await appRow(pending.json.id);
    for (const token of [A.token, MA.token]) {
      for (const [method, path, body] of [
        ["GET", "/review/apps"],
        ["POST", `/review/apps/${pending.json.id}/approve`],
        ["POST", `/review/apps/${pending.json.id}/reject`, { notes: "no" }],
      ] as [string, string, unknown?][]) {
        const res = await p.request(method, path, { token, body });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.json).toMatchObject({ statusCode: 403, error: "Forbidden" });
      }
    }
    expect(await appRow(pending.json.id)).toEqual(before);
    // the review pages too
    const devBrowser = await BrowserSession.signIn(p.url, A.email, PASSWORD);
    for (const browser of [devBrowser, MA.browser]) {
      expect((await browser.get("/reviewer")).status).toBe(403);
      expect((await browser.get(`/reviewer/apps/${pending.json.id}`)).status).toBe(403);
      expect((await browser.post(`/reviewer/apps/${pending.json.id}`, { intent: "approve" })).status).toBe(403);
    }
    expect(await appRow(pending.json.id)).toEqual(before);
    // positive control: a reviewer can
    expect((await p.request("GET", "/review/apps", { token: reviewer.token })).status).toBe(200);
  });
});

describe("portal pages: another developer's app", () => {
  it("every page of the app answers 404, and its forms change nothing", async () => {
    const browser = await BrowserSession.signIn(p.url, A.email, PASSWORD);
    for (const suffix of ["", "/analytics", "/credentials", "/hooks", "/manifest", "/preview", "/webhooks"]) {
      expect((await browser.get(`/portal/apps/${B.appId}${suffix}`)).status, suffix).toBe(404);
      expect((await browser.get(`/portal/apps/${A.appId}${suffix}`)).status, `own ${suffix}`).toBe(200);
    }
    const before = await appRow(B.appId);
    for (const intent of ["update", "submit", "regenerate-secret", "test-install", "test-uninstall"])
      expect(
        (
          await browser.post(`/portal/apps/${B.appId}`, {
            intent,
            name: "Hijacked",
            description: "x",
            category: "other",
            redirectUrl: "https://attacker.example/cb",
            version: "1.0.0",
          })
        ).status,
        intent,
      ).toBe(404);
    expect(
      (
        await browser.post(`/portal/apps/${B.appId}/manifest`, {
          intent: "save",
          manifest: JSON.stringify({ blocks: [] }),
        })
      ).status,
    ).toBe(404);
    expect((await browser.post(`/portal/apps/${B.appId}/webhooks`, { deliveryId: B.deliveryId })).status).toBe(404);
    // A's own app page with B's delivery id
    expect((await browser.post(`/portal/apps/${A.appId}/webhooks`, { deliveryId: B.deliveryId })).status).toBe(404);
    expect(await appRow(B.appId)).toEqual(before);
    expect(await installationsOf(B.appId, A.businessId)).toBe(0);
    expect((await installationRow(B.installationId)).status).toBe("ACTIVE");
  });
});

describe("admin pages: another business's ids", () => {
  it("orders, products, installed apps, app pages and site pages answer 404 and their forms change nothing", async () => {
    const browser = MA.browser;
    const order = await orderState(B.order.id);
    const gets = [
      `/admin/orders/${B.order.id}`,
      `/admin/products/${B.product.id}`,
      `/admin/apps/${MB.installationId}`,
      `/admin/apps/${B.installationId}`,
      `/admin/ext/${MB.installationId}/dashboard`,
      `/admin/pages/${B.pageSlug}`,
    ];
    for (const path of gets) expect((await browser.get(path)).status, path).toBe(404);
    // positive controls: the owner sees them
    expect((await MB.browser.get(`/admin/ext/${MB.installationId}/dashboard`)).status).toBe(200);
    expect((await MB.browser.get(`/admin/apps/${MB.installationId}`)).status).toBe(200);
    expect((await MB.browser.get(`/admin/pages/${MB.pageSlug}`)).status).toBe(200);
    expect((await browser.get(`/admin/ext/${MA.installationId}/dashboard`)).status).toBe(200);

    const installation = await installationRow(MB.installationId);
    const embeds = await embedRows(MB.installationId);
    const posts: [string, Record<string, string>][] = [
      [`/admin/orders/${B.order.id}`, { intent: "move", status: "CANCELLED" }],
      [`/admin/products/${B.product.id}`, { intent: "delete" }],
      [`/admin/products/${B.product.id}`, { intent: "save", name: "Hijacked", price: "1.00", status: "ACTIVE" }],
      [`/admin/apps/${MB.installationId}`, { intent: "settings", settings: JSON.stringify({ greeting: "pwned" }) }],
      [`/admin/apps/${MB.installationId}`, { intent: "embed", embedType: "chat", enabled: "false" }],
      ["/admin/apps", { intent: "uninstall", installationId: MB.installationId }],
      ["/admin/apps", { intent: "consent", installationId: MB.installationId }],
      ["/admin/reviews", { intent: "delete", reviewId: B.review.id }],
    ];
    for (const [path, fields] of posts)
      expect((await browser.post(path, fields)).status, `${path} ${fields.intent}`).toBe(404);

    expect(await orderState(B.order.id)).toEqual(order);
    expect((await p.db.select().from(products).where(eq(products.id, B.product.id)))[0]).toMatchObject({
      name: B.product.name,
      businessId: B.businessId,
    });
    expect(await installationRow(MB.installationId)).toEqual(installation);
    expect(await embedRows(MB.installationId)).toEqual(embeds);
    expect((await p.db.select({ n: count() }).from(reviews).where(eq(reviews.id, B.review.id)))[0].n).toBe(1);
  });

  it("a storefront order link of another business is 404, even with that order's own token", async () => {
    const path = (slug: string, id: string) => `/s/${slug}/orders/${id}?t=${orderToken(p.env, id)}`;
    const [sandbox] = await p.db.execute<{ slug: string }>(sql`select slug from businesses where id = ${B.businessId}`);
    const shopper = new BrowserSession(p.url);
    expect((await shopper.get(path(sandbox.slug, B.order.id))).status).toBe(200);
    const other = await shopper.get(path(MA.slug, B.order.id));
    expect(other.status).toBe(404);
    expect(other.html).not.toContain(B.order.customerName);
    expect(
      (await shopper.get(`/s/${sandbox.slug}/orders/${B.order.id}?t=${orderToken(p.env, A.order.id)}`)).status,
    ).toBe(404);
  });
});
