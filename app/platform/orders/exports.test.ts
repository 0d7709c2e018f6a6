/**
 * The orders' CSV export as a background job (issue 45, decision 081), through the Orders page's
 * form, the real graphile-worker in this process, and the download route: exactly the file the
 * list's streamed download wrote before, read and written in bounded batches, one business's
 * exports invisible to another, the same list not prepared twice at once, a failure said, and a
 * week later gone.
 */
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import http from "node:http";
import { and, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import { startPlatform } from "../testing/platform";
import { BrowserSession } from "../testing/browser";
import { eventually } from "../testing/receiver";
import { accounts, businesses, orderExportChunks, orderExports } from "../../../db/schema";
import { schema, type Database } from "../../../db/client";
import { advanceClock, now, setClockOffset } from "../core/clock.server";
import { addJob } from "../core/jobs.server";
import { parseOrderFilter } from "../catalog/admin-queries.server";
import { ordersCsv } from "./orders-csv.server";
import { createAccount } from "../accounts/accounts.server";
import {
  EXPORT_BATCH,
  EXPORT_TTL_MS,
  MAX_EXPORTS_IN_PROGRESS,
  openOrderExport,
  requestOrderExport,
  runOrderExport,
  type OrderExportView,
} from "./exports.server";
import { EXPORT_FILTERS, seedExportOrders } from "./exports.test-helpers";

const p = await startPlatform({ worker: true });

/**
 * The files GET /admin/orders/export.csv streamed for seedExportOrders(4,321 orders) under each of
 * EXPORT_FILTERS, captured from that route before it was replaced (commit bfa9d23): bytes and sha256.
 */
const BEFORE: Record<string, { bytes: number; lines: number; sha256: string }> = {
  "": { bytes: 768693, lines: 4321, sha256: "fc2d576e37669039058968e9812f52561074d6fb2b147b37a3dad48e7389b876" },
  "from=2025-01-20&to=2025-02-10&sort=oldest": {
    bytes: 162836,
    lines: 851,
    sha256: "0413f723ff8d7d9e211509090593d1d8f8b809594a2a5c932654b5a5b989dd31",
  },
  "q=customer+1&sort=amount_desc": {
    bytes: 173683,
    lines: 933,
    sha256: "46dce35c09f2ae91abc1f1371ef1807fa1029cfc378c204e8ff9e5d2c2f0bd17",
  },
};
const N = 4321;

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** A merchant with a signed-in browser. */
async function merchant() {
  const shop = await p.register("MERCHANT");
  const browser = await BrowserSession.signIn(p.url, shop.email, shop.password);
  await browser.get("/admin/orders");
  return { ...shop, browser };
}

/** A GET with the browser's cookies, the answer as bytes. */
async function fetchAs(browser: BrowserSession, path: string) {
  const url = new URL(path, p.url);
  const res = await fetch(url, { headers: { Cookie: browser.cookieHeader(url) }, redirect: "manual" });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

/** Export pressed on the Orders page with `fields` (the list's filter): the export it started. */
async function pressExport(m: Awaited<ReturnType<typeof merchant>>, fields: Record<string, string>) {
  const res = await m.browser.post("/admin/orders?index", { intent: "export", ...fields });
  expect(res.status).toBe(303);
  const [row] = await p.db
    .select()
    .from(orderExports)
    .where(eq(orderExports.businessId, m.businessId))
    .orderBy(sql`${orderExports.createdAt} desc`)
    .limit(1);
  return { location: res.location, id: row.id };
}

/** The export's progress as the page polls it, once the job has finished it. */
const whenDone = (browser: BrowserSession, id: string) =>
  eventually(async () => {
    const { res, body } = await fetchAs(browser, `/admin/orders/exports/${id}`);
    expect(res.status).toBe(200);
    const view = JSON.parse(body.toString()) as OrderExportView;
    expect(["READY", "FAILED"]).toContain(view.status);
    return view;
  }, 30_000);

describe("orders' CSV exports", () => {
  it("streams a download at the client's pace: a client that stops reading stops the reads of its chunks", async () => {
    const m = await merchant();
    // a READY export of 160 chunks of 256 KiB (40 MiB), written straight into its tables
    const CHUNKS = 160;
    const SIZE = 256 * 1024;
    const id = `oexp_pace_${m.businessId}`;
    await p.db.insert(orderExports).values({
      id,
      businessId: m.businessId,
      query: "",
      timeZone: "UTC",
      status: "READY",
      rows: CHUNKS,
      bytes: CHUNKS * SIZE,
      finishedAt: now(),
    });
    for (let seq = 0; seq < CHUNKS; seq += 20)
      await p.db.insert(orderExportChunks).values(
        Array.from({ length: 20 }, (_, i) => ({
          exportId: id,
          seq: seq + i,
          data: Buffer.alloc(SIZE, 97 + ((seq + i) % 26)),
        })),
      );
    // a web server of its own on the same database, whose statements are counted
    const reads: number[] = [];
    const logged = drizzle(p.db.$client, {
      schema,
      logger: {
        logQuery: (query, params) => {
          if (/from "order_export_chunks"/.test(query) && /"seq" = \$/.test(query)) reads.push(Number(params.at(-1)));
        },
      },
    }) as unknown as Database;
    const { createWebServer } = await import("../../web.server");
    const env = { ...p.env };
    const web = await createWebServer({ db: logged, env, port: 0, host: "127.0.0.1" });
    // the platform's origin is this server's (the storefront's host would be sent there)
    env.publicUrl = `http://localhost:${web.port}`;
    try {
      const url = new URL(`/admin/orders/exports/${id}/download`, env.publicUrl);
      const res = await new Promise<import("node:http").IncomingMessage>((resolve, reject) =>
        http.get(url, { headers: { Cookie: m.browser.cookieHeader(new URL(p.url)) } }, resolve).on("error", reject),
      );
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-length"]).toBe(String(CHUNKS * SIZE));
      // the client reads nothing for a second: the server stops once the socket's buffers are full
      res.pause();
      await new Promise((r) => setTimeout(r, 1000));
      const whilePaused = reads.length;
      expect(whilePaused).toBeGreaterThan(0);
      expect(whilePaused).toBeLessThan(CHUNKS / 2);
      // then it reads the whole file: every chunk once, in order, every byte
      let bytes = 0;
      let first = -1;
      let last = -1;
      res.on("data", (part: Buffer) => {
        if (first < 0) first = part[0];
        last = part[part.length - 1];
        bytes += part.length;
      });
      res.resume();
      await new Promise((r) => res.on("end", r));
      expect(bytes).toBe(CHUNKS * SIZE);
      expect([first, last]).toEqual([97, 97 + ((CHUNKS - 1) % 26)]);
      expect(reads).toEqual(Array.from({ length: CHUNKS }, (_, i) => i));
    } finally {
      await web.close();
    }
  }, 60_000);

  it("prepares exactly the CSV the list's download wrote before, for every filter, and the page shows its Download link", async () => {
    const m = await merchant();
    await seedExportOrders(p.db, m.businessId, N, "a");
    for (const f of EXPORT_FILTERS) {
      await p.db.update(businesses).set({ timezone: f.timeZone }).where(eq(businesses.id, m.businessId));
      const { location, id } = await pressExport(m, Object.fromEntries(new URLSearchParams(f.query)));
      // back to the list with the same filter
      expect(location).toBe(`/admin/orders${f.query ? `?${f.query}` : ""}`);
      const view = await whenDone(m.browser, id);
      const before = BEFORE[f.query];
      expect(view).toMatchObject({ status: "READY", rows: before.lines, expected: before.lines, percent: 100 });
      expect(view.bytes).toBe(before.bytes);

      const { res, body } = await fetchAs(m.browser, `/admin/orders/exports/${id}/download`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      expect(res.headers.get("content-disposition")).toMatch(
        /^attachment; filename="orders-[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      expect({ bytes: body.length, sha256: sha256(body) }).toEqual({ bytes: before.bytes, sha256: before.sha256 });
      // and byte for byte what the list's function writes at its old batch size (500)
      let old = "";
      const { filter } = parseOrderFilter(new URLSearchParams(f.query), f.timeZone);
      for await (const chunk of ordersCsv(p.db, m.businessId, filter, 500)) old += chunk;
      expect(body.toString("utf8")).toBe(old);
    }
    // the page lists the exports, newest first, each with its Download link
    const page = (await m.browser.get("/admin/orders")).html.replace(/<!-- -->/g, "");
    expect(page).toContain('id="exports"');
    expect(page.match(/data-testid="export-download"/g)).toHaveLength(3);
    expect(page).toContain("Orders matching &quot;customer 1&quot;");
    expect(page).toContain("4,321 orders");
  }, 120_000);

  it(`reads at most ${EXPORT_BATCH} orders per query, writes a chunk per batch, and downloads a chunk per query`, async () => {
    const m = await merchant();
    await seedExportOrders(p.db, m.businessId, N, "b");
    // the same database through drizzle's own query log: every statement the export sends, with its parameters
    const statements: { query: string; params: unknown[] }[] = [];
    const logged = drizzle(p.db.$client, {
      schema,
      logger: { logQuery: (query, params) => statements.push({ query, params }) },
    }) as unknown as Database;
    for (const batchSize of [EXPORT_BATCH, 1000]) {
      const [row] = await p.db
        .insert(orderExports)
        .values({ id: `oexp_test_${batchSize}`, businessId: m.businessId, query: "", timeZone: "UTC" })
        .returning();
      statements.length = 0;
      await runOrderExport(logged, row.id, { batchSize });
      const reads = statements.filter((s) => /from "orders"/.test(s.query) && /limit \$\d+$/.test(s.query));
      expect(reads).toHaveLength(Math.ceil(N / batchSize));
      for (const r of reads) expect(r.params.at(-1)).toBe(batchSize);
      // no other statement reads orders without a limit, but the one count of the estimate
      const unbounded = statements.filter((s) => /from "orders"/.test(s.query) && !/limit \$\d+$/.test(s.query));
      expect(unbounded.every((s) => /count\(/.test(s.query))).toBe(true);
      const chunks = await p.db
        .select({ seq: orderExportChunks.seq, data: orderExportChunks.data })
        .from(orderExportChunks)
        .where(eq(orderExportChunks.exportId, row.id))
        .orderBy(orderExportChunks.seq);
      expect(chunks).toHaveLength(1 + Math.ceil(N / batchSize));
      expect(chunks.map((c) => c.seq)).toEqual(chunks.map((_, i) => i));
      // a chunk per batch: the header, then full batches, then the rest (a record can hold a line break: count records by order number)
      const records = chunks.slice(1).map((c) => c.data.toString("utf8").match(/(^|\r\n)\d+,\d{4}-/g)?.length ?? 0);
      expect(records).toEqual([...records.slice(0, -1).map(() => batchSize), N % batchSize || batchSize]);

      statements.length = 0;
      const file = await openOrderExport(logged, m.businessId, row.id);
      const reader = file!.body.getReader();
      let bytes = 0;
      for (let next = await reader.read(); !next.done; next = await reader.read()) bytes += next.value.length;
      expect(bytes).toBe(file!.bytes);
      const chunkReads = statements.filter(
        (s) => /from "order_export_chunks"/.test(s.query) && /"seq" = \$/.test(s.query),
      );
      expect(chunkReads).toHaveLength(chunks.length);
    }
    // the second attempt of a job starts the file again: never a doubled chunk
    await p.db
      .update(orderExports)
      .set({ status: "RUNNING" })
      .where(eq(orderExports.id, `oexp_test_${EXPORT_BATCH}`));
    await runOrderExport(p.db, `oexp_test_${EXPORT_BATCH}`);
    const [again] = await p.db
      .select()
      .from(orderExports)
      .where(eq(orderExports.id, `oexp_test_${EXPORT_BATCH}`));
    expect(again).toMatchObject({ status: "READY", rows: N, bytes: BEFORE[""].bytes });
  }, 120_000);

  it("answers 404 for another business's export, 403 to a member without orders, and the login page to no one", async () => {
    const m = await merchant();
    const other = await merchant();
    await seedExportOrders(p.db, m.businessId, 3, "c");
    const { id } = await pressExport(m, {});
    expect((await whenDone(m.browser, id)).status).toBe("READY");
    for (const path of [`/admin/orders/exports/${id}`, `/admin/orders/exports/${id}/download`]) {
      const { res, body } = await fetchAs(other.browser, path);
      expect(res.status, path).toBe(404);
      expect(JSON.parse(body.toString())).toMatchObject({ statusCode: 404, error: "Not Found" });
      const anonymous = await fetch(new URL(path, p.url), { redirect: "manual" });
      expect(anonymous.status).toBe(302);
      expect(anonymous.headers.get("location")).toMatch(/^\/login\?redirectTo=/);
    }
    // the other business's page lists none of it; a developer's session (its sandbox, decision 036) neither reaches it
    expect((await other.browser.get("/admin/orders")).html).not.toContain(id);
    const dev = await p.register("DEVELOPER");
    const devBrowser = await BrowserSession.signIn(p.url, dev.email, dev.password);
    expect((await fetchAs(devBrowser, `/admin/orders/exports/${id}/download`)).res.status).toBe(404);
    // members of the business: with "orders" they see and download it, without it they are refused
    const staff = async (permissions: string[]) => {
      const email = `staff-${permissions.join("-") || "none"}-${Math.random().toString(36).slice(2, 8)}@example.test`;
      const { account } = await createAccount(p.db, {
        email,
        password: "correct horse battery",
        name: "S",
        role: "MERCHANT",
        businessName: "x",
      });
      await p.db
        .update(accounts)
        .set({ businessId: m.businessId, staffPermissions: permissions })
        .where(eq(accounts.id, account.id));
      return BrowserSession.signIn(p.url, email, "correct horse battery");
    };
    const clerk = await staff(["orders"]);
    expect((await fetchAs(clerk, `/admin/orders/exports/${id}/download`)).res.status).toBe(200);
    const designer = await staff(["pages"]);
    for (const path of [`/admin/orders/exports/${id}`, `/admin/orders/exports/${id}/download`]) {
      const { res, body } = await fetchAs(designer, path);
      expect(res.status).toBe(403);
      expect(body.toString()).toContain('needs the "orders" permission');
    }
    await designer.get("/admin");
    expect((await designer.post("/admin/orders?index", { intent: "export" })).status).toBe(403);
    // and the form needs its CSRF token
    const forged = await fetch(`${p.url}/admin/orders?index`, {
      method: "POST",
      body: new URLSearchParams({ intent: "export" }),
      headers: { Cookie: m.browser.cookieHeader(new URL(p.url)) },
      redirect: "manual",
    });
    expect(forged.status).toBe(403);
  }, 60_000);

  it("prepares the same list once at a time, refuses a fourth export in progress with a 429, and ignores a stalled one", async () => {
    const m = await merchant();
    // exports in progress, as the worker would find them (no jobs: nothing moves them on)
    const queued = (i: number, query: string, updatedAt = now()) =>
      p.db.insert(orderExports).values({
        id: `oexp_q_${m.businessId}_${i}`,
        businessId: m.businessId,
        query,
        timeZone: "UTC",
        updatedAt,
      });
    await queued(1, "status=PENDING");
    await queued(2, "q=ana");
    await queued(0, "q=old", new Date(now().getTime() - 11 * 60_000)); // stalled: holds no place
    const ask = (q: Record<string, string>) =>
      requestOrderExport(p.db, m.businessId, { params: new URLSearchParams(q), timeZone: "UTC" });
    // the same list (its fields in another order, a default sort) is the export already being prepared
    expect((await ask({ sort: "newest", status: "PENDING" })).id).toBe(`oexp_q_${m.businessId}_1`);
    const third = await ask({ q: "bob" });
    expect(third.status).toBe("QUEUED");
    await eventually(async () => {
      const [row] = await p.db.select().from(orderExports).where(eq(orderExports.id, third.id));
      expect(row.status).toBe("READY");
    });
    await queued(3, "q=cy");
    await expect(ask({ q: "dee" })).rejects.toMatchObject({ status: 429 });
    // through the page: the refusal in words, nothing queued
    const res = await m.browser.post("/admin/orders?index", { intent: "export", q: "dee" });
    expect(res.status).toBe(429);
    expect(res.html).toContain(`${MAX_EXPORTS_IN_PROGRESS} exports are being prepared already`);
    const live = await p.db
      .select()
      .from(orderExports)
      .where(and(eq(orderExports.businessId, m.businessId), eq(orderExports.query, "q=dee")));
    expect(live).toHaveLength(0);
  }, 60_000);

  it("says so when the job's last attempt fails", async () => {
    const m = await merchant();
    // a time zone PostgreSQL does not know fails every attempt of the date range's query
    await p.db
      .insert(orderExports)
      .values({ id: "oexp_bad", businessId: m.businessId, query: "from=2025-01-01", timeZone: "Mars/Olympus" });
    await addJob(p.db, "orders__export", { id: "oexp_bad" }, { maxAttempts: 1 });
    const view = await whenDone(m.browser, "oexp_bad");
    expect(view).toMatchObject({ status: "FAILED", error: "The export could not be prepared. Please export again." });
    const page = (await m.browser.get("/admin/orders")).html;
    expect(page).toContain("The export could not be prepared. Please export again.");
    expect((await fetchAs(m.browser, "/admin/orders/exports/oexp_bad/download")).res.status).toBe(404);
  }, 60_000);

  it("keeps a file for 7 days, then the hourly cleanup drops it with its chunks", async () => {
    const m = await merchant();
    await seedExportOrders(p.db, m.businessId, 5, "d");
    const { id } = await pressExport(m, {});
    const view = await whenDone(m.browser, id);
    expect(new Date(view.expiresAt).getTime()).toBe(new Date(view.finishedAt!).getTime() + EXPORT_TTL_MS);
    try {
      // (a session of a week ago has expired meanwhile: the merchant signs in again)
      advanceClock(EXPORT_TTL_MS - 60_000);
      const later = await BrowserSession.signIn(p.url, m.email, m.password);
      expect((await fetchAs(later, `/admin/orders/exports/${id}/download`)).res.status).toBe(200);
      advanceClock(2 * 60_000);
      // expired: no longer listed nor downloaded, even before the cleanup ran
      expect((await fetchAs(later, `/admin/orders/exports/${id}/download`)).res.status).toBe(404);
      expect((await fetchAs(later, `/admin/orders/exports/${id}`)).res.status).toBe(404);
      expect((await later.get("/admin/orders")).html).not.toContain(id);
      await addJob(p.db, "maintenance__cleanup", {});
      await eventually(async () => {
        const rows = await p.db.select().from(orderExports).where(eq(orderExports.id, id));
        expect(rows).toHaveLength(0);
      });
      const chunks = await p.db.select().from(orderExportChunks).where(eq(orderExportChunks.exportId, id));
      expect(chunks).toHaveLength(0);
    } finally {
      setClockOffset(0);
    }
  }, 60_000);

  it("drops the business's exports when a shopper is erased: no file keeps their orders", async () => {
    const m = await merchant();
    await seedExportOrders(p.db, m.businessId, 12, "e"); // order 6 (c6@example.com) is cancelled: it may be erased
    const other = await merchant();
    await seedExportOrders(p.db, other.businessId, 2, "f");
    const { id } = await pressExport(m, {});
    const theirs = await pressExport(other, {});
    await whenDone(m.browser, id);
    await whenDone(other.browser, theirs.id);
    const erased = await p.request("POST", "/merchant/privacy/requests", {
      token: m.token,
      body: { email: "c6@example.com", kind: "ERASE" },
    });
    expect(erased.status).toBe(201);
    expect((await fetchAs(m.browser, `/admin/orders/exports/${id}/download`)).res.status).toBe(404);
    expect(await p.db.select().from(orderExportChunks).where(eq(orderExportChunks.exportId, id))).toHaveLength(0);
    // another business's files are not touched
    expect((await fetchAs(other.browser, `/admin/orders/exports/${theirs.id}/download`)).res.status).toBe(200);
  }, 60_000);

  it("sends an old link to the list's download to the Orders page with its filter", async () => {
    const m = await merchant();
    const { res } = await fetchAs(m.browser, "/admin/orders/export.csv?sort=newest&q=ana&status=NOPE");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/orders?q=ana");
    const anonymous = await fetch(new URL("/admin/orders/export.csv", p.url), { redirect: "manual" });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toMatch(/^\/login\?redirectTo=/);
  });
});
