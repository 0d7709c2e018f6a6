/**
 * The admin's CSV export of orders as a background job (issue 45, decision 081): a request writes an
 * `order_exports` row with the list's filter and, in the same transaction, its `orders__export`
 * job; the job reads the orders by keyset, EXPORT_BATCH at a time, and writes each batch's CSV as
 * one `order_export_chunks` row with the export's progress in the same transaction; the merchant
 * downloads the chunks in order once it is READY, one chunk in memory at a time. An export is kept
 * EXPORT_TTL_MS after it finished, then the hourly cleanup drops it (its chunks go with it).
 *
 * The CSV is exactly the one the list's streamed download wrote before (catalog/orders-csv.server.ts).
 */
import { and, desc, eq, gt, inArray, sql } from "drizzle-orm";
import type { Database, Db } from "../../../db/client";
import { orderExportChunks, orderExports, type ORDER_EXPORT_STATUSES } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { addJob } from "../core/jobs.server";
import { countMatchingOrders, parseOrderFilter } from "../catalog/orders-list.server";
import { orderFilterQuery } from "../catalog/order-filter";
import { ordersCsvChunks } from "./orders-csv.server";

/** Orders read per query and written per chunk: about 0.6 MB of CSV, whatever the shop's size. */
export const EXPORT_BATCH = 2_000;
/** How long a finished export can be downloaded. */
export const EXPORT_TTL_MS = 7 * 24 * 3600_000;
/** Exports of one business being prepared at once; one more is refused with a 429. */
export const MAX_EXPORTS_IN_PROGRESS = 3;
/** An export in progress without news for this long is stalled (its worker died): it no longer holds a place. */
export const EXPORT_STALLED_MS = 10 * 60_000;
/** Attempts of the job before the export is marked FAILED. */
export const EXPORT_MAX_ATTEMPTS = 3;
/** The exports the Orders page lists. */
export const EXPORTS_LISTED = 5;

export type OrderExportStatus = (typeof ORDER_EXPORT_STATUSES)[number];
type OrderExportRow = typeof orderExports.$inferSelect;

/** What the page shows of an export (JSON-safe). */
export type OrderExportView = {
  id: string;
  status: OrderExportStatus;
  /** the list's filter as its query string ("" for every order) */
  query: string;
  timeZone: string;
  rows: number;
  /** how many orders matched when the job started (0 until it did) */
  expected: number;
  /** 0 to 100 */
  percent: number;
  bytes: number;
  createdAt: string;
  finishedAt: string | null;
  /** when it can no longer be downloaded */
  expiresAt: string;
  error: string | null;
  stalled: boolean;
};

const inProgress = (status: OrderExportStatus) => status === "QUEUED" || status === "RUNNING";
const expiresAt = (e: Pick<OrderExportRow, "createdAt" | "finishedAt">) =>
  new Date((e.finishedAt ?? e.createdAt).getTime() + EXPORT_TTL_MS);

export function exportView(e: OrderExportRow, at = now()): OrderExportView {
  const done = e.status === "READY";
  return {
    id: e.id,
    status: e.status,
    query: e.query,
    timeZone: e.timeZone,
    rows: e.rows,
    expected: e.expected,
    percent: done ? 100 : e.expected > 0 ? Math.min(99, Math.floor((e.rows / e.expected) * 100)) : 0,
    bytes: e.bytes,
    createdAt: e.createdAt.toISOString(),
    finishedAt: e.finishedAt?.toISOString() ?? null,
    expiresAt: expiresAt(e).toISOString(),
    error: e.error,
    stalled: inProgress(e.status) && at.getTime() - e.updatedAt.getTime() > EXPORT_STALLED_MS,
  };
}

/** The filter as the export keeps it: the set fields only, in one order, so that the same list is the same query. */
export function exportQuery(params: URLSearchParams, timeZone: string): string {
  const { filter } = parseOrderFilter(params, timeZone);
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(orderFilterQuery(filter))) if (v) query.set(k, v);
  return query.toString();
}

/**
 * Asks for an export of the orders the filter matches, in the business's time zone. The same list
 * already being prepared (and not stalled) is answered with that export rather than a second one;
 * a fourth export in progress is refused (429). The job is added in the row's transaction.
 */
export async function requestOrderExport(
  db: Database,
  businessId: string,
  input: { params: URLSearchParams; timeZone: string },
): Promise<OrderExportView> {
  const query = exportQuery(input.params, input.timeZone);
  return db.transaction(async (tx) => {
    // one request of a business at a time decides (two clicks make one export)
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('order-exports'), hashtext(${businessId}))`);
    const at = now();
    const live = await tx
      .select()
      .from(orderExports)
      .where(
        and(
          eq(orderExports.businessId, businessId),
          inArray(orderExports.status, ["QUEUED", "RUNNING"]),
          gt(orderExports.updatedAt, new Date(at.getTime() - EXPORT_STALLED_MS)),
        ),
      );
    const same = live.find((e) => e.query === query && e.timeZone === input.timeZone);
    if (same) return exportView(same, at);
    if (live.length >= MAX_EXPORTS_IN_PROGRESS)
      throw new ApiError(
        429,
        `${MAX_EXPORTS_IN_PROGRESS} exports are being prepared already: download one when it is ready, then export again.`,
      );
    const [row] = await tx
      .insert(orderExports)
      .values({ id: newId("oexp"), businessId, query, timeZone: input.timeZone, createdAt: at, updatedAt: at })
      .returning();
    await addJob(tx, "orders__export", { id: row.id }, { maxAttempts: EXPORT_MAX_ATTEMPTS });
    return exportView(row, at);
  });
}

/** One export of the business, or null (another business's id reads as none). */
export async function getOrderExport(db: Db, businessId: string, id: string): Promise<OrderExportView | null> {
  const [row] = await db
    .select()
    .from(orderExports)
    .where(and(eq(orderExports.id, id), eq(orderExports.businessId, businessId)));
  return row && expiresAt(row) > now() ? exportView(row) : null;
}

/** The business's latest exports that can still be downloaded (or are being prepared), newest first. */
export async function listOrderExports(db: Db, businessId: string, limit = EXPORTS_LISTED): Promise<OrderExportView[]> {
  const at = now();
  const rows = await db
    .select()
    .from(orderExports)
    .where(
      and(
        eq(orderExports.businessId, businessId),
        sql`coalesce(${orderExports.finishedAt}, ${orderExports.createdAt}) > ${new Date(at.getTime() - EXPORT_TTL_MS).toISOString()}::timestamptz`,
      ),
    )
    .orderBy(desc(orderExports.createdAt))
    .limit(limit);
  return rows.map((r) => exportView(r, at));
}

/**
 * The job's work: the CSV written chunk by chunk, each with its rows and bytes counted in the same
 * transaction. Another attempt (a worker that died, a database that went away) starts again from
 * the first chunk. An export that is READY, or gone (pruned), is left alone.
 */
export async function runOrderExport(db: Database, id: string, options: { batchSize?: number } = {}) {
  const [started] = await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(orderExports)
      .where(and(eq(orderExports.id, id), inArray(orderExports.status, ["QUEUED", "RUNNING", "FAILED"])))
      .for("update");
    if (!row) return [];
    await tx.delete(orderExportChunks).where(eq(orderExportChunks.exportId, id));
    return tx
      .update(orderExports)
      .set({ status: "RUNNING", rows: 0, bytes: 0, error: null, finishedAt: null, updatedAt: now() })
      .where(eq(orderExports.id, id))
      .returning();
  });
  if (!started) return;
  const { filter } = parseOrderFilter(new URLSearchParams(started.query), started.timeZone);
  const expected = await countMatchingOrders(db, started.businessId, filter);
  await db.update(orderExports).set({ expected, updatedAt: now() }).where(eq(orderExports.id, id));
  let seq = 0;
  for await (const chunk of ordersCsvChunks(db, started.businessId, filter, options.batchSize ?? EXPORT_BATCH)) {
    const data = Buffer.from(chunk.text, "utf8");
    const kept = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(orderExports)
        .set({
          rows: sql`${orderExports.rows} + ${chunk.rows}`,
          bytes: sql`${orderExports.bytes} + ${data.length}`,
          updatedAt: now(),
        })
        .where(and(eq(orderExports.id, id), eq(orderExports.status, "RUNNING")))
        .returning({ id: orderExports.id });
      if (!row) return false;
      await tx.insert(orderExportChunks).values({ exportId: id, seq, data });
      return true;
    });
    if (!kept) return; // pruned, or taken over by another attempt
    seq++;
  }
  const at = now();
  await db
    .update(orderExports)
    .set({ status: "READY", expected: sql`${orderExports.rows}`, finishedAt: at, updatedAt: at })
    .where(and(eq(orderExports.id, id), eq(orderExports.status, "RUNNING")));
}

/** After the job's last attempt failed: the page says so, and the merchant may export again. */
export async function failOrderExport(db: Db, id: string) {
  const at = now();
  await db
    .update(orderExports)
    .set({
      status: "FAILED",
      error: "The export could not be prepared. Please export again.",
      finishedAt: at,
      updatedAt: at,
    })
    .where(and(eq(orderExports.id, id), inArray(orderExports.status, ["QUEUED", "RUNNING"])));
  await db.delete(orderExportChunks).where(eq(orderExportChunks.exportId, id));
}

/**
 * A READY export's file as a stream of its chunks, read one query (one chunk) at a time, with its
 * size; null when the business has no such export ready. A chunk that has gone (the export was
 * pruned meanwhile) breaks the stream rather than end a short file.
 */
export async function openOrderExport(
  db: Database,
  businessId: string,
  id: string,
): Promise<{ export: OrderExportView; bytes: number; body: ReadableStream<Uint8Array> } | null> {
  const view = await getOrderExport(db, businessId, id);
  if (!view || view.status !== "READY") return null;
  const [{ chunks }] = await db
    .select({ chunks: sql<number>`count(*)::int` })
    .from(orderExportChunks)
    .where(eq(orderExportChunks.exportId, id));
  let seq = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (seq >= chunks) return controller.close();
      const [chunk] = await db
        .select({ data: orderExportChunks.data })
        .from(orderExportChunks)
        .where(and(eq(orderExportChunks.exportId, id), eq(orderExportChunks.seq, seq)));
      if (!chunk) return controller.error(new Error(`export ${id}: chunk ${seq} is gone`));
      seq++;
      controller.enqueue(new Uint8Array(chunk.data.buffer, chunk.data.byteOffset, chunk.data.byteLength));
    },
  });
  return { export: view, bytes: view.bytes, body };
}

/** Drops the exports finished (or asked for) more than EXPORT_TTL_MS ago, with their chunks; the hourly cleanup runs it. */
export async function pruneOrderExports(db: Db, at = now()): Promise<number> {
  const rows = await db
    .delete(orderExports)
    .where(
      sql`coalesce(${orderExports.finishedAt}, ${orderExports.createdAt}) <= ${new Date(at.getTime() - EXPORT_TTL_MS).toISOString()}::timestamptz`,
    )
    .returning({ id: orderExports.id });
  return rows.length;
}

/**
 * Drops every export of the business, ready or being prepared (a job in progress stops at its next
 * chunk): called by a shopper's erasure (decision 048: an erasure leaves no copy), since any file may
 * hold their orders. The merchant exports again.
 */
export async function dropOrderExports(db: Db, businessId: string): Promise<number> {
  const rows = await db
    .delete(orderExports)
    .where(eq(orderExports.businessId, businessId))
    .returning({ id: orderExports.id });
  return rows.length;
}
