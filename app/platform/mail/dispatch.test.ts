/**
 * The mail dispatcher (decision 087): the checkout's order statement writes its messages waiting,
 * without a job and without a NOTIFY in the order's transaction; the dispatcher turns them into
 * jobs after the commit, each message once however many dispatchers run at once, and they are sent.
 * While the process's web server is busy, they wait their turn (decision 089).
 */
import { afterAll, describe, expect, it } from "vitest";
import { eq, inArray, sql } from "drizzle-orm";
import { businesses, mailMessages } from "../../../db/schema";
import { startPlatform } from "../testing/platform";
import { startSmtp } from "../testing/smtp";
import { createProduct, productSchema } from "../catalog/products.server";
import { checkout } from "../orders/checkout.server";
import { startWorker } from "../../../jobs/worker";
import { textArray } from "../../../db/sql";
import { closeTransports } from "./transport.server";
import { dispatchWaitingMail, startMailDispatcher } from "./dispatch.server";
import { requestsLastSecond } from "../core/load.server";

const smtp = await startSmtp();
// no worker at first: the rows and jobs are looked at before anything takes them
const p = await startPlatform({ worker: false, env: { MAIL_URL: smtp.url } });
afterAll(async () => {
  closeTransports();
  await smtp.stop();
});

const jobsFor = async (ids: string[]) =>
  (
    await p.db.execute<{ n: number }>(
      sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'mail__send' and key = any(${textArray(ids.map((id) => `mail:${id}`))})`,
    )
  )[0].n;

/** A new shop with a product, and `n` orders placed in it with shoppers' e-mails; answers its waiting messages' ids. */
async function sale(n: number, slug: string): Promise<string[]> {
  const { business } = await p.registerMerchant();
  const product = await createProduct(
    p.db,
    business.id,
    productSchema.parse({ name: "Earl Grey", slug, price: 1250, category: "Drinks" }),
  );
  const [shop] = await p.db.select().from(businesses).where(eq(businesses.id, business.id));
  for (let i = 0; i < n; i++)
    await checkout(
      p.db,
      shop,
      {
        customer: { name: `Shopper ${i}`, phone: "555 0100", email: `${slug}-${i}@example.test` },
        items: [{ productId: product.id, quantity: 1 }],
        deliveryMethod: "PICKUP",
        paymentMethod: "CASH",
      },
      { actor: "test" },
    );
  const rows = await p.db
    .select({ id: mailMessages.id })
    .from(mailMessages)
    .where(eq(mailMessages.businessId, business.id));
  return rows.map((r) => r.id);
}

const until = async (check: () => Promise<boolean>, ms: number) => {
  const end = Date.now() + ms;
  while (!(await check()) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  return check();
};

describe("the mail dispatcher", () => {
  it("order messages wait without a job, become one job each under concurrent dispatchers, and are sent once", async () => {
    const { business } = await p.registerMerchant();
    const product = await createProduct(
      p.db,
      business.id,
      productSchema.parse({ name: "Earl Grey", slug: "tea-dispatch", price: 1250, category: "Drinks" }),
    );
    const [shop] = await p.db.select().from(businesses).where(eq(businesses.id, business.id));
    const placed = [];
    for (let i = 0; i < 12; i++)
      placed.push(
        await checkout(
          p.db,
          shop,
          {
            customer: { name: `Shopper ${i}`, phone: "555 0100", email: `shopper-${i}@example.test` },
            items: [{ productId: product.id, quantity: 1 }],
            deliveryMethod: "PICKUP",
            paymentMethod: "CASH",
          },
          { actor: "test" },
        ),
      );
    const rows = (
      await p.db
        .select()
        .from(mailMessages)
        .where(inArray(mailMessages.kind, ["order.confirmation", "order.new"]))
    ).filter((r) => r.businessId === business.id);
    const ids = rows.map((r) => r.id);
    // a confirmation and the owner's notice for each order, written waiting, no job yet
    expect(ids).toHaveLength(24);
    expect(rows.every((r) => r.status === "QUEUED" && r.attempts === 0 && r.nextAttemptAt !== null)).toBe(true);
    expect(await jobsFor(ids)).toBe(0);

    // eight dispatchers at once, in batches of 5: every message taken once
    const taken = await Promise.all(Array.from({ length: 8 }, () => dispatchWaitingMail(p.db, 5)));
    let total = taken.reduce((a, b) => a + b, 0);
    while (total < 24) total += await dispatchWaitingMail(p.db, 5);
    expect(total).toBe(24);
    expect(await dispatchWaitingMail(p.db)).toBe(0);
    expect(await jobsFor(ids)).toBe(24);

    // a worker sends them: each address once
    const before = smtp.received.length;
    const worker = await startWorker({ url: p.dbUrl, deps: { db: p.db, env: p.env }, concurrency: 2 });
    try {
      const sent = async () =>
        (await p.db.select().from(mailMessages).where(inArray(mailMessages.id, ids))).filter((r) => r.status === "SENT")
          .length;
      const end = Date.now() + 30_000;
      while ((await sent()) < 24 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
      expect(await sent()).toBe(24);
      const got = smtp.received.slice(before).map((m) => m.envelopeTo[0]);
      for (let i = 0; i < 12; i++) expect(got.filter((a) => a === `shopper-${i}@example.test`)).toHaveLength(1);
      // and the owner's twelve notices, one an order
      const ids12 = new Set(
        smtp.received
          .slice(before)
          .filter((m) => m.parsed.subject?.includes("New order"))
          .map((m) => m.parsed.messageId),
      );
      expect(ids12.size).toBe(12);
    } finally {
      await worker.stop();
    }
  }, 60_000);

  it("a running worker's dispatcher sends an order's confirmation without being asked", async () => {
    const worker = await startWorker({ url: p.dbUrl, deps: { db: p.db, env: p.env }, concurrency: 2 });
    try {
      const { business } = await p.registerMerchant();
      const product = await createProduct(
        p.db,
        business.id,
        productSchema.parse({ name: "Sencha", slug: "sencha-dispatch", price: 900, category: "Drinks" }),
      );
      const [shop] = await p.db.select().from(businesses).where(eq(businesses.id, business.id));
      await checkout(
        p.db,
        shop,
        {
          customer: { name: "Grace", phone: "555 0101", email: "grace@example.test" },
          items: [{ productId: product.id, quantity: 1 }],
          deliveryMethod: "PICKUP",
          paymentMethod: "CASH",
        },
        { actor: "test" },
      );
      const end = Date.now() + 20_000;
      while (!smtp.received.some((m) => m.envelopeTo.includes("grace@example.test")) && Date.now() < end)
        await new Promise((r) => setTimeout(r, 100));
      expect(smtp.received.filter((m) => m.envelopeTo.includes("grace@example.test"))).toHaveLength(1);
    } finally {
      await worker.stop();
    }
  }, 60_000);

  it("while the web server is busy, lets the checkout's messages through at its busy rate, and the rest when the rush is over", async () => {
    const ids = await sale(10, "tea-busy");
    expect(ids).toHaveLength(20);
    let busy = true;
    const dispatcher = await startMailDispatcher(p.db, {
      listen: false,
      pollMs: 100,
      busy: () => busy,
      busyPerSecond: 4,
    });
    try {
      await new Promise((r) => setTimeout(r, 1000));
      // a second's budget at first (4) and 4 a second after it: about 8 of the 20, never all
      const during = await jobsFor(ids);
      expect(during).toBeGreaterThanOrEqual(4);
      expect(during).toBeLessThanOrEqual(10);
      // the rush is over: the rest at once
      busy = false;
      expect(await until(async () => (await jobsFor(ids)) === 20, 3000)).toBe(true);
    } finally {
      await dispatcher.stop();
    }
  }, 30_000);

  it("while busy, claims a second's budget at a time: one statement and one add_jobs a second, however many wake-ups", async () => {
    const ids = await sale(10, "tea-batches");
    const dispatcher = await startMailDispatcher(p.db, {
      listen: false,
      pollMs: 20,
      busy: () => true,
      busyPerSecond: 4,
    });
    try {
      // every order of a sale wakes the dispatcher: 20 ms polls stand in for them
      await new Promise((r) => setTimeout(r, 1500));
    } finally {
      await dispatcher.stop();
    }
    // the jobs of one claim share its transaction's time: two claims in 1.5 s (at 0 and at 1 s), of 4 each
    const [{ n, claims }] = await p.db.execute<{ n: number; claims: number }>(
      sql`select count(*)::int as n, count(distinct created_at)::int as claims from graphile_worker.jobs
          where task_identifier = 'mail__send' and key = any(${textArray(ids.map((id) => `mail:${id}`))})`,
    );
    expect(n).toBe(8);
    expect(claims).toBe(2);
  }, 30_000);

  it("holds no message longer than its longest hold, however long the rush", async () => {
    const ids = await sale(10, "tea-hold");
    const dispatcher = await startMailDispatcher(p.db, {
      listen: false,
      pollMs: 100,
      busy: () => true,
      busyPerSecond: 1,
      maxHoldMs: 600,
    });
    try {
      // at 1 a second the 20 would take 20 s; past the hold they go at full speed
      expect(await until(async () => (await jobsFor(ids)) === 20, 4000)).toBe(true);
    } finally {
      await dispatcher.stop();
    }
  }, 30_000);

  it("counts the web server's requests as its load", async () => {
    // the earlier tests' requests out of the window first
    await new Promise((r) => setTimeout(r, 1100));
    expect(requestsLastSecond()).toBe(0);
    await Promise.all(Array.from({ length: 30 }, () => fetch(`${p.url}/healthz`)));
    expect(requestsLastSecond()).toBeGreaterThanOrEqual(30);
    await new Promise((r) => setTimeout(r, 1100));
    expect(requestsLastSecond()).toBe(0);
  });
});
