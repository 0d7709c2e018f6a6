/**
 * The admin's orders list pages by keyset (issue 45, decision 068): Next and Previous by cursor for
 * every sort give the same pages as page numbers, with ties on the key broken by id; a bad cursor
 * falls back to the first page; the counts come from the counters, a search's up to a cap.
 */
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { BrowserSession } from "../testing/browser";
import { ORDER_SORTS } from "./order-filter";
import { orderStatusCounts, parseOrderFilter, searchOrders } from "./admin-queries.server";

const p = await startPlatform();
const shop = await p.register("MERCHANT");
const KEY = "a-test-key-for-the-list-cursors-0123456789";
// 47 orders: createdAt and amount repeat (ties broken by id), a few cancelled
await p.db.execute(sql`
  insert into orders (id, business_id, order_number, status, subtotal, amount, currency, delivery_method, payment_method,
                      customer_name, customer_phone, created_at, updated_at)
  select 'ord_pg_' || md5(g::text), ${shop.businessId}, 'P' || g, case when g % 5 = 0 then 'CANCELLED' else 'PENDING' end,
         100 * (g % 4), 100 * (g % 4), 'USD', 'PICKUP', 'CASH', 'Customer ' || g, '+1 555 0100',
         timestamptz '2025-05-01 10:00:00.000001+00' + (g / 3) * interval '1 minute' + (g % 2) * interval '1 microsecond', now()
  from generate_series(1, 47) g`);

const filter = (query: Record<string, string> = {}) => parseOrderFilter(new URLSearchParams(query), "UTC").filter;
const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

describe("the admin's orders list by cursor", () => {
  it("walks every sort forward by Next and back by Previous, page for page as the page numbers", async () => {
    for (const sort of ORDER_SORTS) {
      const f = filter({ sort });
      const byNumber: string[][] = [];
      for (let n = 1; n <= 5; n++)
        byNumber.push(ids((await searchOrders(p.db, shop.businessId, f, { page: n, pageSize: 10 })).rows));
      expect(byNumber[4]).toHaveLength(7);
      let at = await searchOrders(p.db, shop.businessId, f, { page: 1, pageSize: 10, cursors: { key: KEY } });
      const forward = [ids(at.rows)];
      expect(at.prev).toBeNull();
      while (at.next) {
        at = await searchOrders(p.db, shop.businessId, f, {
          page: 1,
          pageSize: 10,
          cursors: { key: KEY, after: at.next },
        });
        forward.push(ids(at.rows));
        expect(at.page, sort).toBe(forward.length);
      }
      expect(forward, sort).toEqual(byNumber);
      const back = [ids(at.rows)];
      while (at.prev) {
        at = await searchOrders(p.db, shop.businessId, f, {
          page: 1,
          pageSize: 10,
          cursors: { key: KEY, before: at.prev },
        });
        back.unshift(ids(at.rows));
        expect(at.page, sort).toBe(6 - back.length);
      }
      expect(back, sort).toEqual(byNumber);
      expect(at.page).toBe(1);
    }
  });

  it("falls back to the first page on a cursor that is bad, tampered or of another sort", async () => {
    const first = await searchOrders(p.db, shop.businessId, filter(), { page: 1, pageSize: 10, cursors: { key: KEY } });
    for (const after of ["junk", `${first.next}x`, first.next!.replace(/^./, "A")]) {
      const res = await searchOrders(p.db, shop.businessId, filter(), {
        page: 1,
        pageSize: 10,
        cursors: { key: KEY, after },
      });
      expect(res.invalidCursor, after).toBe(true);
      expect(ids(res.rows)).toEqual(ids(first.rows));
    }
    const other = await searchOrders(p.db, shop.businessId, filter({ sort: "amount_desc" }), {
      page: 1,
      pageSize: 10,
      cursors: { key: KEY, after: first.next },
    });
    expect(other.invalidCursor).toBe(true);
  });

  it("counts from the counters, and a search up to its cap", async () => {
    const counts = await orderStatusCounts(p.db, shop.businessId);
    expect(counts.all).toBe(47);
    expect(counts.byStatus.CANCELLED).toBe(9);
    expect((await searchOrders(p.db, shop.businessId, filter({ status: "CANCELLED" }), { page: 1 })).total).toBe(9);
    const searched = await searchOrders(p.db, shop.businessId, filter({ q: "Customer" }), { page: 1 });
    expect(searched).toMatchObject({ total: 47, capped: false });
  });

  it("links Next and Previous by cursor on the page", async () => {
    const browser = await BrowserSession.signIn(p.url, shop.email, "correct horse battery");
    const page1 = await browser.get("/admin/orders");
    const next = /<a rel="next"[^>]*href="(\/admin\/orders\?after=[^"]+)"/.exec(page1.html)?.[1];
    expect(next).toBeTruthy();
    const page2 = (await browser.get(next!.replace(/&amp;/g, "&"))).html;
    expect(page2).toContain("Page <!-- -->2<!-- --> of <!-- -->3");
    expect(page2).toMatch(/<a rel="prev"[^>]*href="\/admin\/orders\?before=[^"]+"/);
    const bad = (await browser.get("/admin/orders?after=nonsense")).html;
    expect(bad).toContain("That page link is no longer valid");
  });
});
