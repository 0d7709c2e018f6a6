/**
 * The order messages against an SMTP server that is not the platform's own (contract 16): the
 * shopper's confirmation names the shop, its lines and totals in the shop's currency and links to the
 * order's status page; a cancellation and a delivery are told too; the merchant's members get the
 * new-order notice unless they turned it off; a shop can turn a shopper message off; an erasure
 * scrubs the message records and an export lists them.
 */
import { afterAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { businesses, mailMessages } from "../../../db/schema";
import { startPlatform } from "../testing/platform";
import { linkIn, startSmtp } from "../testing/smtp";
import { createProduct, productSchema } from "../catalog/products.server";
import { checkout } from "../orders/checkout.server";
import { moveOrderStatus } from "../orders/status.server";
import { closeTransports } from "./transport.server";
import { setMailChoice } from "./unsubscribe.server";
import { setShopperMail } from "./settings.server";
import { MAIL_CHANNEL } from "./dispatch.server";
import { createWaker } from "../core/wake.server";

const smtp = await startSmtp();
const p = await startPlatform({ worker: true, env: { MAIL_URL: smtp.url } });
afterAll(async () => {
  closeTransports();
  await smtp.stop();
});

const waitFor = async (pred: (m: (typeof smtp.received)[number]) => boolean, what: string) => {
  const end = Date.now() + 20_000;
  for (;;) {
    const m = smtp.received.find(pred);
    if (m) return m;
    if (Date.now() > end) throw new Error(`no message: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

async function shop(currency: string) {
  const { m, business } = await p.registerMerchant();
  await p.db.update(businesses).set({ currency, locale: "de-DE" }).where(eq(businesses.id, business.id));
  const product = await createProduct(
    p.db,
    business.id,
    productSchema.parse({ name: "Earl Grey", slug: `tea-${business.id.slice(-6)}`, price: 1250, category: "Drinks" }),
  );
  const [fresh] = await p.db.select().from(businesses).where(eq(businesses.id, business.id));
  return { m, business: fresh, product };
}

const order = (s: Awaited<ReturnType<typeof shop>>, email: string | undefined, name = "Ada Shopper") =>
  checkout(
    p.db,
    s.business,
    {
      customer: { name, phone: "+49 30 1234567", ...(email ? { email } : {}) },
      items: [{ productId: s.product.id, quantity: 2 }],
      deliveryMethod: "PICKUP",
      paymentMethod: "CASH",
    },
    { actor: "test" },
  );

describe("order messages", () => {
  it("an order with a customer e-mail sends the shopper a confirmation naming the shop, and the members a notice", async () => {
    const s = await shop("EUR");
    const { order: placed } = await order(s, "ada@example.test");
    const m = await waitFor((r) => r.envelopeTo.includes("ada@example.test"), "the confirmation");
    expect(m.parsed.subject).toBe(`${s.business.name}: order #${placed!.orderNumber} received`);
    const text = m.parsed.text!;
    expect(text).toContain(s.business.name);
    expect(text).toContain("2 × Earl Grey");
    expect(text).toMatch(/2 × Earl Grey\s+25,00\s€/u); // the shop's currency and locale
    const link = linkIn(text, `${p.env.storefrontUrl}/s/${s.business.slug}/orders/${placed!.id}?t=`);
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(m.parsed.html).toContain(`${s.business.name}</p>`);
    // a shopper message is always sent: no unsubscribe header
    expect(m.parsed.headerLines.some((h) => h.key === "list-unsubscribe")).toBe(false);
    // the merchant (who did not turn "New orders" off) gets the notice, with one-click unsubscribe
    const notice = await waitFor(
      (r) => r.envelopeTo.includes(s.m.email) && /^New order/.test(r.parsed.subject ?? ""),
      "the notice",
    );
    expect(notice.parsed.subject).toMatch(
      new RegExp(`^New order #${placed!.orderNumber} at ${s.business.name}: 25,00\\s€$`, "u"),
    );
    expect(notice.parsed.headerLines.some((h) => h.key === "list-unsubscribe-post")).toBe(true);
  });

  it("no e-mail, no confirmation; a member who turned new orders off gets none, and the order wakes no mail dispatcher", async () => {
    const s = await shop("USD");
    await setMailChoice(p.db, s.m.account.id, "order.new", false);
    // the mail dispatchers' wake-ups in this process (core/wake.server.ts: one registry per channel)
    let wakes = 0;
    const off = createWaker(MAIL_CHANNEL).onLocal(() => wakes++);
    try {
      const { order: placed } = await order(s, undefined);
      const rows = await p.db.select().from(mailMessages).where(eq(mailMessages.businessId, s.business.id));
      expect(rows.filter((r) => r.data.orderId === placed!.id)).toEqual([]);
      expect(wakes).toBe(0);
      // an order that writes a message wakes them at once
      await order(s, "ada@example.test");
      expect(wakes).toBe(1);
    } finally {
      off();
    }
  });

  it("a cancellation and a delivery are told to the shopper; a shop may turn a kind off", async () => {
    const s = await shop("JPY");
    const { order: a } = await order(s, "cancel@example.test");
    await moveOrderStatus(p.db, s.business.id, a!.id, "CANCELLED", "test");
    const cancelled = await waitFor(
      (r) => r.envelopeTo.includes("cancel@example.test") && /cancelled$/.test(r.parsed.subject ?? ""),
      "the cancellation",
    );
    expect(cancelled.parsed.text).toContain("cancelled your order");
    expect(cancelled.parsed.text).toMatch(/¥|JP¥/);
    const { order: b } = await order(s, "deliver@example.test");
    for (const st of ["CONFIRMED", "PREPARING", "READY", "DELIVERED"] as const)
      await moveOrderStatus(p.db, s.business.id, b!.id, st, "test");
    await waitFor(
      (r) => r.envelopeTo.includes("deliver@example.test") && /delivered$/.test(r.parsed.subject ?? ""),
      "the delivery",
    );
    // the shop turns confirmations off: the next order sends none
    await setShopperMail(p.db, s.business.id, "order.confirmation", false);
    const { order: c } = await order(s, "quiet@example.test");
    const rows = await p.db.select().from(mailMessages).where(eq(mailMessages.businessId, s.business.id));
    expect(rows.some((r) => r.data.orderId === c!.id && r.kind === "order.confirmation")).toBe(false);
  });

  it("an export lists the shopper's messages; an erasure replaces their address and name in them", async () => {
    const s = await shop("EUR");
    const { order: placed } = await order(s, "erase-me@example.test", "Erin Erasable");
    await waitFor((r) => r.envelopeTo.includes("erase-me@example.test"), "the confirmation");
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const [row] = await p.db
        .select()
        .from(mailMessages)
        .where(eq(mailMessages.causeKey, `order.confirmation:${placed!.id}`));
      if (row?.status === "SENT") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await moveOrderStatus(p.db, s.business.id, placed!.id, "CANCELLED", "test");
    const exported = await p.request("POST", "/merchant/privacy/requests", {
      token: s.m.token,
      body: { email: "erase-me@example.test", kind: "EXPORT" },
    });
    expect(exported.status, exported.text).toBe(201);
    expect(exported.json.export.messages[0]).toMatchObject({
      kind: "order.confirmation",
      to: "erase-me@example.test",
      status: "SENT",
      orderId: placed!.id,
    });
    const erased = await p.request("POST", "/merchant/privacy/requests", {
      token: s.m.token,
      body: { email: "erase-me@example.test", kind: "ERASE" },
    });
    expect(erased.status, erased.text).toBe(201);
    const rows = await p.db.select().from(mailMessages).where(eq(mailMessages.businessId, s.business.id));
    const mine = rows.filter((r) => r.data.orderId === placed!.id && r.kind !== "order.new");
    expect(mine.length).toBeGreaterThan(0);
    for (const r of mine) {
      expect(r.toAddress).toBe("[erased]");
      expect(r.toName).toBe("Erased customer");
    }
    expect(JSON.stringify(rows)).not.toContain("erase-me@example.test");
    // the member who asked is told each request is done
    await waitFor(
      (r) => r.envelopeTo.includes(s.m.email) && r.parsed.subject === "A shopper's data was erased",
      "privacy done",
    );
  });
});
