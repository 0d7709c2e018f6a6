import { describe, expect, it } from "vitest";
import { and, eq, inArray, sql } from "drizzle-orm";
import { startPlatform } from "../testing/platform";
import { BrowserSession } from "../testing/browser";
import { orders, orderStatusChanges, orderItems, platformEvents } from "../../../db/schema";
import { newId } from "../core/ids.server";
import { ordersForExport, parseOrderFilter, searchOrders, type OrderFilter } from "./admin-queries.server";
import { searchOrderStatements, searchParts, searchSample } from "./orders-list.server";
import { bulkMoveOrders } from "../orders/bulk-moves.server";
import { csvCell, ordersCsv } from "../orders/orders-csv.server";

const p = await startPlatform();

let counter = 7000;
type Extra = Partial<typeof orders.$inferInsert>;
async function order(businessId: string, extra: Extra = {}) {
  const id = newId("ord");
  const createdAt = extra.createdAt ?? new Date("2025-03-01T12:00:00Z");
  const amount = extra.amount ?? 1000;
  await p.db.insert(orders).values({
    id,
    businessId,
    orderNumber: String(counter++),
    status: "PENDING",
    subtotal: amount,
    amount,
    currency: "USD",
    deliveryMethod: "PICKUP",
    paymentMethod: "CASH",
    customerName: "Pat Doe",
    customerPhone: "+1 555 0100",
    customerEmail: "pat@example.com",
    updatedAt: createdAt,
    ...extra,
    createdAt,
  });
  return id;
}

const filter = (businessId: string, query: Record<string, string>, timeZone = "UTC"): OrderFilter =>
  parseOrderFilter(new URLSearchParams(query), timeZone).filter;
async function numbers(businessId: string, query: Record<string, string>, timeZone = "UTC") {
  const { rows } = await searchOrders(p.db, businessId, filter(businessId, query, timeZone), {
    page: 1,
    pageSize: 100,
  });
  return rows.map((r) => r.orderNumber);
}
const numberOf = async (id: string) =>
  (await p.db.select({ n: orders.orderNumber }).from(orders).where(eq(orders.id, id)))[0].n;

describe("the admin's orders list", () => {
  it("searches order numbers, customer names, phones (as typed or as digits) and e-mails, within the business", async () => {
    const shop = await p.register("MERCHANT");
    const other = await p.register("MERCHANT");
    const ana = await order(shop.businessId, {
      customerName: "Ana Silva",
      customerPhone: "+1 555 0142",
      customerEmail: "ana@silva.example",
    });
    const ben = await order(shop.businessId, {
      customerName: "Ben 100% Carter",
      customerPhone: "(555) 777-1234",
      customerEmail: null,
    });
    await order(other.businessId, { customerName: "Ana Silva", customerPhone: "+1 555 0142" });
    const [anaNo, benNo] = [await numberOf(ana), await numberOf(ben)];

    expect(await numbers(shop.businessId, { q: "silva" })).toEqual([anaNo]);
    expect(await numbers(shop.businessId, { q: "ANA SIL" })).toEqual([anaNo]);
    expect(await numbers(shop.businessId, { q: "silva.example" })).toEqual([anaNo]);
    expect(await numbers(shop.businessId, { q: "555 0142" })).toEqual([anaNo]);
    expect(await numbers(shop.businessId, { q: "5550142" })).toEqual([anaNo]);
    expect(await numbers(shop.businessId, { q: "555-777-1234" })).toEqual([benNo]);
    expect(await numbers(shop.businessId, { q: `#${benNo}` })).toEqual([benNo]);
    expect(await numbers(shop.businessId, { q: benNo })).toEqual([benNo]);
    // LIKE wildcards are literal
    expect(await numbers(shop.businessId, { q: "100%" })).toEqual([benNo]);
    expect(await numbers(shop.businessId, { q: "%%%" })).toEqual([]);
    // under three characters: order numbers only
    expect(await numbers(shop.businessId, { q: "an" })).toEqual([]);
    expect(await numbers(shop.businessId, { q: "nobody" })).toEqual([]);
    const { total } = await searchOrders(p.db, shop.businessId, filter(shop.businessId, { q: "silva" }), { page: 1 });
    expect(total).toBe(1);
  });

  it("filters by a date range of whole days in the business's time zone", async () => {
    const shop = await p.register("MERCHANT");
    // New York is UTC-5 in January: 04:30Z is still the 9th there, 05:30Z is the 10th
    const lateOn9th = await order(shop.businessId, { createdAt: new Date("2025-01-10T04:30:00Z") });
    const earlyOn10th = await order(shop.businessId, { createdAt: new Date("2025-01-10T05:30:00Z") });
    const lastMinuteOf10th = await order(shop.businessId, { createdAt: new Date("2025-01-11T04:59:00Z") });
    const on11th = await order(shop.businessId, { createdAt: new Date("2025-01-11T05:00:00Z") });
    const [a, b, c, d] = await Promise.all([lateOn9th, earlyOn10th, lastMinuteOf10th, on11th].map(numberOf));

    const ny = "America/New_York";
    expect((await numbers(shop.businessId, { from: "2025-01-10", to: "2025-01-10" }, ny)).sort()).toEqual(
      [b, c].sort(),
    );
    expect((await numbers(shop.businessId, { from: "2025-01-10", to: "2025-01-10" }, "UTC")).sort()).toEqual(
      [a, b].sort(),
    );
    expect((await numbers(shop.businessId, { from: "2025-01-11" }, ny)).sort()).toEqual([d]);
    expect((await numbers(shop.businessId, { to: "2025-01-09" }, ny)).sort()).toEqual([a]);
    // a reversed range is swapped and said so; a bad date is left out and said so
    const reversed = parseOrderFilter(new URLSearchParams({ from: "2025-01-10", to: "2025-01-09" }), ny);
    expect(reversed.filter).toMatchObject({ from: "2025-01-09", to: "2025-01-10" });
    expect(reversed.notices).toHaveLength(1);
    const bad = parseOrderFilter(
      new URLSearchParams({ from: "2025-02-30", to: "yesterday", status: "LOST", sort: "random" }),
      ny,
    );
    expect(bad.filter).toMatchObject({ from: null, to: null, status: null, sort: "newest" });
    expect(bad.notices).toHaveLength(3);
  });

  it("sorts newest, oldest, by amount high to low and low to high (ties by id), and filters by status", async () => {
    const shop = await p.register("MERCHANT");
    const t0 = Date.parse("2025-05-01T10:00:00Z");
    const ids: string[] = [];
    for (const [i, amount, status] of [
      [0, 500, "PENDING"],
      [1, 2500, "CONFIRMED"],
      [2, 1500, "PENDING"],
      [3, 2500, "PENDING"],
    ] as const)
      ids.push(await order(shop.businessId, { createdAt: new Date(t0 + i * 60_000), amount, status }));
    const n = await Promise.all(ids.map(numberOf));
    expect(await numbers(shop.businessId, {})).toEqual([n[3], n[2], n[1], n[0]]);
    expect(await numbers(shop.businessId, { sort: "oldest" })).toEqual([n[0], n[1], n[2], n[3]]);
    const tie = [n[1], n[3]].sort((x, y) => (ids[n.indexOf(x)] < ids[n.indexOf(y)] ? 1 : -1));
    expect(await numbers(shop.businessId, { sort: "amount_desc" })).toEqual([...tie, n[2], n[0]]);
    expect(await numbers(shop.businessId, { sort: "amount_asc" })).toEqual([n[0], n[2], ...[...tie].reverse()]);
    expect(await numbers(shop.businessId, { status: "PENDING", sort: "amount_desc" })).toEqual([n[3], n[2], n[0]]);
    const { total } = await searchOrders(p.db, shop.businessId, filter(shop.businessId, { status: "PENDING" }), {
      page: 1,
    });
    expect(total).toBe(3);
  });
});

describe("what the search asks the trigram index for (decision 095)", () => {
  // a sample where every text holds "customer " and "@example.com", and few hold " 12" or "ana"
  const sample = Array.from({ length: 100 }, (_, g) => `s${g} customer ${g * 7} +1 555 ${g} c${g}@example.com`);
  it("leaves out the words most orders hold, keeping each word's neighbours as typed", () => {
    expect(searchParts("Customer 12", sample)).toEqual([" 12"]);
    expect(searchParts("CUSTOMER 12 x", sample)).toEqual([" 12 ", " x"]);
    expect(searchParts("ana@example.com", sample)).toEqual(["ana@"]);
  });
  it("asks for the whole search when no word is common, every word is, or there is no sample", () => {
    expect(searchParts("ana silva", sample)).toEqual(["ana silva"]);
    expect(searchParts("customer", sample)).toEqual(["customer"]);
    expect(searchParts("customer 555", sample)).toEqual(["customer 555"]);
    expect(searchParts("Customer 12", [])).toEqual(["Customer 12"]);
    expect(searchParts("Customer 12", sample.slice(0, 10))).toEqual(["Customer 12"]);
  });
  it("searches without a sample when it cannot be read, and reads it again the next time", async () => {
    let reads = 0;
    const down = {
      execute: () => {
        reads++;
        return Promise.reject(new Error("connection refused"));
      },
    } as unknown as typeof p.db;
    expect(await searchSample(down)).toEqual([]);
    expect(await searchSample(down)).toEqual([]);
    expect(reads).toBe(2);
  });
  it("never asks for a part without a trigram (it would match every row)", () => {
    // a one-character word after a blank still has a trigram ("  1")
    expect(
      searchParts(
        "customer 1",
        sample.map((s) => s.replace(/ 1/g, " 9")),
      ),
    ).toEqual([" 1"]);
    expect(searchParts("customer ab", sample)).toEqual([" ab"]);
    expect(searchParts("ab customer", sample)).toEqual(["ab "]);
    expect(searchParts("b customer", sample)).toEqual(["b customer"]);
  });
});

describe("bulk status moves", () => {
  it("moves the orders the status machine allows, reports the others per order, and never touches another business's orders", async () => {
    const shop = await p.register("MERCHANT");
    const other = await p.register("MERCHANT");
    const pending1 = await order(shop.businessId, { status: "PENDING" });
    const pending2 = await order(shop.businessId, { status: "PENDING" });
    const delivered = await order(shop.businessId, { status: "DELIVERED" });
    const foreign = await order(other.businessId, { status: "PENDING" });

    const results = await bulkMoveOrders(
      p.db,
      shop.businessId,
      [pending1, delivered, foreign, pending2, pending1, "ord_nope"],
      "CONFIRMED",
    );
    expect(results).toEqual([
      { orderId: pending1, orderNumber: await numberOf(pending1), ok: true, to: "CONFIRMED" },
      {
        orderId: delivered,
        orderNumber: await numberOf(delivered),
        ok: false,
        message: "Cannot move order from picked up to confirmed",
      },
      { orderId: foreign, orderNumber: null, ok: false, message: "Order not found" },
      { orderId: pending2, orderNumber: await numberOf(pending2), ok: true, to: "CONFIRMED" },
      { orderId: "ord_nope", orderNumber: null, ok: false, message: "Order not found" },
    ]);

    const statuses = Object.fromEntries(
      (
        await p.db
          .select({ id: orders.id, status: orders.status })
          .from(orders)
          .where(inArray(orders.id, [pending1, pending2, delivered, foreign]))
      ).map((r) => [r.id, r.status]),
    );
    expect(statuses).toEqual({
      [pending1]: "CONFIRMED",
      [pending2]: "CONFIRMED",
      [delivered]: "DELIVERED",
      [foreign]: "PENDING",
    });

    // the history and the events of a single move, for the moved orders only
    const history = await p.db
      .select()
      .from(orderStatusChanges)
      .where(inArray(orderStatusChanges.orderId, [pending1, pending2, delivered, foreign]));
    expect(history.map((h) => [h.orderId, h.fromStatus, h.toStatus, h.actor]).sort()).toEqual(
      [
        [pending1, "PENDING", "CONFIRMED", "merchant"],
        [pending2, "PENDING", "CONFIRMED", "merchant"],
      ].sort(),
    );
    const events = await p.db
      .select()
      .from(platformEvents)
      .where(
        and(
          eq(platformEvents.type, "order.status_changed"),
          inArray(platformEvents.businessId, [shop.businessId, other.businessId]),
        ),
      );
    expect(events.map((e) => e.data).sort((x, y) => String(x.orderId).localeCompare(String(y.orderId)))).toEqual(
      [pending1, pending2].sort().map((id) => ({
        orderId: id,
        orderNumber: expect.any(String),
        previousStatus: "PENDING",
        status: "CONFIRMED",
      })),
    );
    expect(events.every((e) => e.businessId === shop.businessId)).toBe(true);

    // cancelling emits order.cancelled as a single move would
    await bulkMoveOrders(p.db, shop.businessId, [pending1], "CANCELLED");
    const cancelled = await p.db
      .select()
      .from(platformEvents)
      .where(and(eq(platformEvents.type, "order.cancelled"), eq(platformEvents.businessId, shop.businessId)));
    expect(cancelled.map((e) => e.data)).toEqual([{ orderId: pending1, orderNumber: await numberOf(pending1) }]);
  });

  it("refuses an empty selection and more than 100 orders with a 400", async () => {
    const shop = await p.register("MERCHANT");
    await expect(bulkMoveOrders(p.db, shop.businessId, [], "CONFIRMED")).rejects.toMatchObject({ status: 400 });
    await expect(
      bulkMoveOrders(
        p.db,
        shop.businessId,
        Array.from({ length: 101 }, (_, i) => `ord_${i}`),
        "CONFIRMED",
      ),
    ).rejects.toMatchObject({ status: 400 });
  });

  it("answers the page's form: CSRF required, another business's ids refused and untouched", async () => {
    const shop = await p.register("MERCHANT");
    const other = await p.register("MERCHANT");
    const mine = await order(shop.businessId, { status: "PENDING" });
    const theirs = await order(other.businessId, { status: "PENDING" });
    const browser = await BrowserSession.signIn(p.url, shop.email, shop.password);
    await browser.get("/admin/orders");
    const post = (fields: [string, string][]) =>
      fetch(`${p.url}/admin/orders?index`, {
        method: "POST",
        body: new URLSearchParams(fields),
        headers: { Cookie: browser.cookieHeader(new URL(p.url)) },
        redirect: "manual",
      });
    const forged = await post([
      ["intent", "bulk-move"],
      ["status", "CONFIRMED"],
      ["orderIds", mine],
    ]);
    expect(forged.status).toBe(403);
    const res = await post([
      ["csrf", browser.csrf],
      ["intent", "bulk-move"],
      ["status", "CONFIRMED"],
      ["orderIds", mine],
      ["orderIds", theirs],
    ]);
    expect(res.status).toBe(200);
    const html = (await res.text()).replace(/<!-- -->/g, "");
    expect(html).toContain("1 order was not moved");
    expect(html).toContain(`${theirs}: Order not found`);
    const bad = await post([
      ["csrf", browser.csrf],
      ["intent", "bulk-move"],
      ["status", "SHIPPED"],
      ["orderIds", mine],
    ]);
    expect(bad.status).toBe(400);
    const rows = await p.db
      .select({ id: orders.id, status: orders.status })
      .from(orders)
      .where(inArray(orders.id, [mine, theirs]));
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({ [mine]: "CONFIRMED", [theirs]: "PENDING" });
  });
});

describe("the CSV export", () => {
  it("neutralises formulas, quotes what must be quoted, and keeps plain cells plain", () => {
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    // a phone number or a plain number cannot run anything: written as typed, no stray apostrophe
    expect(csvCell("+1 555 0100")).toBe("+1 555 0100");
    expect(csvCell("+45 12 34 56 78")).toBe("+45 12 34 56 78");
    expect(csvCell("+1 (555) 010-0100")).toBe("+1 (555) 010-0100");
    expect(csvCell("-5")).toBe("-5");
    // a sign followed by anything else still can
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("+SUM(A1:A9)")).toBe("'+SUM(A1:A9)");
    expect(csvCell("-1+cmd|' /C calc'!A0")).toBe("'-1+cmd|' /C calc'!A0");
    expect(csvCell("=1")).toBe("'=1");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\t=1")).toBe("'\t=1");
    expect(csvCell("Smith, Jane")).toBe(`"Smith, Jane"`);
    expect(csvCell("line\nbreak")).toBe(`"line\nbreak"`);
    expect(csvCell("Chloé")).toBe("Chloé");
    expect(csvCell(12)).toBe("12");
    expect(csvCell(null)).toBe("");
  });

  it("exports every order of the filter, in its order, with ISO times at the shop's offset, words, items and amounts", async () => {
    const shop = await p.register("MERCHANT");
    const other = await p.register("MERCHANT");
    const evil = await order(shop.businessId, {
      createdAt: new Date("2025-01-10T05:30:00Z"),
      customerName: '=cmd|"/c calc"!A1',
      customerPhone: "+1 555 0199",
      customerEmail: "@evil.example",
      notes: "Ring twice, please\nthen wait",
      address: "1 Main St, Springfield",
      subtotal: 1850,
      deliveryFee: 300,
      discount: 100,
      amount: 2050,
      deliveryMethod: "DELIVERY",
    });
    await p.db.insert(orderItems).values([
      { id: `itm_a_${evil}`, orderId: evil, productId: "prd_1", name: "Margherita", price: 1200, quantity: 1 },
      { id: `itm_b_${evil}`, orderId: evil, productId: "prd_2", name: "Tiramisu", price: 325, quantity: 2 },
    ]);
    await order(shop.businessId, { createdAt: new Date("2025-01-12T12:00:00Z"), customerName: "Chloé Martin" });
    await order(other.businessId, { createdAt: new Date("2025-01-10T06:00:00Z"), customerName: "Someone Else" });

    let text = "";
    for await (const chunk of ordersCsv(
      p.db,
      shop.businessId,
      filter(shop.businessId, { to: "2025-01-10" }, "America/New_York"),
    ))
      text += chunk;
    expect(text.startsWith("\uFEFFOrder,Date,Time zone,Status,")).toBe(true);
    const lines = text.slice(1).split("\r\n");
    expect(lines).toHaveLength(3); // header, one order, the empty string after the last CRLF
    expect(lines[2]).toBe("");
    expect(lines[1]).toBe(
      [
        await numberOf(evil),
        "2025-01-10T00:30:00-05:00",
        "America/New_York",
        "Pending",
        "Not paid online",
        "Cash",
        "Delivery",
        `"'=cmd|""/c calc""!A1"`,
        "+1 555 0199",
        "'@evil.example",
        `"1 Main St, Springfield"`,
        "1 x Margherita; 2 x Tiramisu",
        "3",
        "18.50",
        "1.00",
        "3.00",
        "20.50",
        "USD",
        `"Ring twice, please\nthen wait"`,
      ].join(","),
    );
    expect(text).not.toContain("Someone Else");
  });

  it("reads large exports in keyset batches: every order once, in order, also with ties", async () => {
    const shop = await p.register("MERCHANT");
    const at = new Date("2025-06-01T09:00:00.123Z");
    const ids: string[] = [];
    for (let i = 0; i < 7; i++)
      ids.push(
        await order(shop.businessId, { createdAt: i < 4 ? at : new Date(at.getTime() + i), amount: i % 2 ? 700 : 300 }),
      );
    // microseconds that a JavaScript Date cannot hold
    await p.db.execute(sql`update orders set created_at = created_at + interval '7 microseconds' where id = ${ids[6]}`);
    for (const sort of ["newest", "oldest", "amount_desc", "amount_asc"]) {
      const f = filter(shop.businessId, { sort });
      const all = (await searchOrders(p.db, shop.businessId, f, { page: 1, pageSize: 100 })).rows.map((r) => r.id);
      const batched: string[] = [];
      for await (const batch of ordersForExport(p.db, shop.businessId, f, 2)) batched.push(...batch.map((r) => r.id));
      expect(batched, sort).toEqual(all);
      expect(new Set(batched).size).toBe(7);
    }
  });
});

describe("the list stays indexed on a business with many orders", () => {
  it("never scans the orders table sequentially", async () => {
    const big = await p.register("MERCHANT");
    const small = await p.register("MERCHANT");
    // 10 000 orders over a year for one business, 40 000 for another (a platform holds many businesses)
    for (const [businessId, n] of [
      [big.businessId, 10_000],
      [small.businessId, 40_000],
    ] as const)
      await p.db.execute(sql`
        insert into orders (id, business_id, order_number, status, subtotal, amount, currency, delivery_method, payment_method, customer_name, customer_phone, customer_email, created_at, updated_at)
        select 'ord_bulk_' || ${businessId} || '_' || g, ${businessId}, 'B' || g,
               (array['PENDING','CONFIRMED','PREPARING','READY','IN_DELIVERY','DELIVERED','CANCELLED'])[1 + g % 7],
               100 + (g * 37) % 10000, 100 + (g * 37) % 10000, 'USD', 'PICKUP', 'CASH',
               'Customer ' || g, '+1 555 ' || lpad((g % 10000)::text, 4, '0'), 'c' || g || '@example.com',
               timestamptz '2024-01-01' + (g || ' minutes')::interval * 17, timestamptz '2024-01-01'
        from generate_series(1, ${n}) g`);
    await p.sql.unsafe("vacuum analyze orders");
    // each shape of the list, and the index its page must be read from
    const shapes: [Record<string, string>, RegExp][] = [
      [{}, /Index Scan using orders_business_created_idx/],
      [{ sort: "oldest" }, /Index Scan Backward using orders_business_created_idx/],
      [{ sort: "amount_desc" }, /Index Scan using orders_business_amount_idx/],
      [{ sort: "amount_asc" }, /Index Scan Backward using orders_business_amount_idx/],
      [{ status: "PENDING" }, /orders_business_status_idx/],
      [{ from: "2024-03-01", to: "2024-03-07" }, /orders_business_created_idx/],
      [{ from: "2024-03-01", to: "2024-03-07", sort: "amount_desc" }, /orders_business_(amount|created)_idx/],
      [{ q: "c1234@" }, /orders_search_text_idx/],
      [{ q: "555 0123" }, /orders_search_text_idx/],
      [{ q: "#1234" }, /orders_business_number_key/],
      // a search whose matches are nearly all old ("Customer 1", 10-19, 100-199, 1000-1999 and the
      // newest, 10000): its page reads the trigram index's matches, not the whole list newest first
      // (the planner's ordered walk read a million rows for this at 1M orders: decision 091)
      [{ q: "customer 1" }, /orders_search_text_idx/],
      [
        { q: "customer 12", status: "CONFIRMED", sort: "amount_asc" },
        /orders_search_text_idx|orders_business_status_idx/,
      ],
    ];
    for (const [shape, index] of shapes) {
      const f = filter(big.businessId, shape, "Europe/Paris");
      // the statements searchOrders runs, explained with their parameters
      const [pagePlan, countPlan, probePlan] = await explainSearch(big.businessId, f);
      // a text search's first look reads the newest rows of the rest of the filter by the sort's
      // index, a bounded number (decision 091), never the whole list
      if (probePlan) {
        expect(probePlan, JSON.stringify(shape)).toMatch(/Limit[\s\S]*Index Scan/);
        expect(probePlan, JSON.stringify(shape)).not.toMatch(/Seq Scan on orders/);
      }
      if (process.env.PRINT_PLANS) console.log(JSON.stringify(shape), "\n" + pagePlan + "\n--- count\n" + countPlan);
      expect(pagePlan, JSON.stringify(shape)).toMatch(index);
      expect(pagePlan, JSON.stringify(shape)).not.toMatch(/Seq Scan on orders/);
      // an unfiltered list reads its total from business_counts, not from a count
      if (Object.keys(shape).some((k) => k !== "sort"))
        expect(countPlan, JSON.stringify(shape)).not.toMatch(/Seq Scan on orders/);
    }
    // a word every order holds ("customer") is left out of what the trigram index is asked
    // (decision 095): the index is asked for " 12" and the whole search is checked on each row
    const sample = await searchSample(p.db, { fresh: true });
    expect(sample.length).toBeGreaterThan(20);
    expect(searchParts("Customer 12", sample)).toEqual([" 12"]);
    expect(searchParts("customer", sample)).toEqual(["customer"]);
    const [pagePlan, countPlan] = await explainSearch(
      big.businessId,
      filter(big.businessId, { q: "customer 12" }),
      sample,
    );
    for (const plan of [pagePlan, countPlan]) {
      expect(plan).toMatch(/Bitmap Index Scan on orders_search_text_idx/);
      expect(plan).toMatch(/Index Cond: \(search_text ~~ '% 12%'::text\)/);
      expect(plan).toMatch(/strpos\(search_text, 'customer 12'::text\) > 0/);
    }
    // a broad search sorts its matches by their keys alone, and reads the page's rows by id (at 1M
    // orders, sorting the 11,110 matches' whole rows was a quarter of the page)
    const broad = searchOrderStatements(p.db, big.businessId, filter(big.businessId, { q: "customer 12" }), {
      page: 1,
      sample,
    }).page.toSQL();
    const verbose = (await p.sql.unsafe(`explain (verbose) ${broad.sql}`, broad.params as never[]))
      .map((r) => r["QUERY PLAN"])
      .join("\n");
    const sorted = [...verbose.matchAll(/-> {2}Sort {2}\(.*\n\s+Output: (.*)/g)].map((m) => m[1]);
    expect(
      sorted.some((output) => /created_at/.test(output) && !/customer_name/.test(output)),
      verbose,
    ).toBe(true);
    expect(verbose).toMatch(/Index Scan using orders_pkey on public\.orders/);
    // the same orders, and the same count, whether the index is asked for every word or not
    for (const q of [
      "customer 12",
      "Customer 123",
      "CUSTOMER 1",
      "customer 99",
      "555 0123",
      "c1234@",
      "1@exa",
      "tomer 4",
    ]) {
      const f = filter(big.businessId, { q });
      const [withSample, without] = await Promise.all(
        [sample, []].map(async (s) => {
          const { page, count } = searchOrderStatements(p.db, big.businessId, f, {
            page: 1,
            pageSize: 100_000,
            sample: s,
          });
          return { rows: (await page).map((r) => r.id), n: (await count)[0].n };
        }),
      );
      expect(withSample, q).toEqual(without);
      expect(without.n, q).toBeGreaterThan(0);
    }
    // and both ways give the newest matches first: "customer 1" from every match (its probe holds
    // one), "customer 99" from its probe (9999 down to 9900 are among the newest 2,000)
    const names = async (q: string) =>
      (await searchOrders(p.db, big.businessId, filter(big.businessId, { q }, "UTC"), { page: 1 })).rows.map(
        (r) => r.customerName,
      );
    expect(await names("customer 1")).toEqual(
      [10000, ...Array.from({ length: 19 }, (_, i) => 1999 - i)].map((g) => `Customer ${g}`),
    );
    expect(await names("customer 99")).toEqual(Array.from({ length: 20 }, (_, i) => `Customer ${9999 - i}`));
  }, 120_000);
});

/** EXPLAIN of the page query, the count query and a text search's probe of searchOrders for a filter. */
async function explainSearch(businessId: string, f: OrderFilter, sample: readonly string[] = []): Promise<string[]> {
  const out: string[] = [];
  const { page, count, probe } = searchOrderStatements(p.db, businessId, f, { page: 1, sample });
  for (const statement of [page, count, probe]) {
    if (!statement) break;
    const { sql: text, params } = statement.toSQL();
    const rows = await p.sql.unsafe(`explain ${text}`, params as never[]);
    out.push(rows.map((r) => r["QUERY PLAN"]).join("\n"));
  }
  return out;
}
