/**
 * One page of a list and the count of every row the list's filter matches, read side by side:
 * the shape of the platform's paginated answers (`{ rows, total }`). A list of the App API also
 * pages by cursor (contract 6, decision 067): `after=<nextCursor>` continues after the last row of
 * the previous page with a keyset condition on the newest-first index, so a cursor page costs the
 * same at any depth, where `page=N` (OFFSET) walks every row before it.
 */
import { createHmac } from "node:crypto";
import { and, count, desc, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../../../db/client";
import { safeEqual } from "./crypto.server";
import { ApiError } from "./http.server";

/**
 * A page as asked: `offset` for `page=N`; `cursor` when the list's area pages by cursor (the App
 * API): the `after` token sent (null: none) and the key its tokens are signed with.
 */
export type Page = { limit: number; offset: number; cursor?: { after: string | null; key: string } };

/** A select of its columns and joins, waiting for its filter, its order and its page. */
type Listing<R> = {
  where(where: SQL | undefined): {
    orderBy(...order: SQL[]): { limit(limit: number): { offset(offset: number): PromiseLike<R[]> } };
  };
};

/** A newest-first table: (createdAt, id) orders it, with an index ending in (created_at desc, id desc). */
type NewestFirst = PgTable & { createdAt: PgColumn; id: PgColumn };

/** Which list a cursor belongs to: its name and its tenant (a business, an installation, a registration). */
export type ListIdentity = { list: string; scope: string };

/** Where a cursor points: the last row's createdAt (as PostgreSQL writes it, to the microsecond), its id, and the number of the page it opens. */
type Position = { at: string; id: string; page: number };

const CURSOR_ERROR = "after is not a cursor of this list";

function mac(key: string, identity: ListIdentity, payload: string): string {
  return createHmac("sha256", key)
    .update(`cursor\n${identity.list}\n${identity.scope}\n${payload}`)
    .digest("base64url")
    .slice(0, 22);
}

/** An opaque cursor: the position in base64url, signed with the list's identity (another list's or tenant's cursor does not verify). */
export function encodeCursor(key: string, identity: ListIdentity, position: Position): string {
  const payload = Buffer.from(JSON.stringify([position.at, position.id, position.page])).toString("base64url");
  return `${payload}.${mac(key, identity, payload)}`;
}

/** The position of a cursor of this list, or 400: malformed, tampered with, or another list's or tenant's. */
export function decodeCursor(key: string, identity: ListIdentity, token: string): Position {
  const [payload, signature, extra] = token.split(".");
  if (extra !== undefined || !payload || !signature || !safeEqual(signature, mac(key, identity, payload)))
    throw new ApiError(400, CURSOR_ERROR);
  try {
    const [at, id, page] = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as unknown[];
    if (typeof at === "string" && !Number.isNaN(Date.parse(at)) && typeof id === "string" && Number.isSafeInteger(page))
      return { at, id, page: page as number };
  } catch {
    // falls through to the 400
  }
  throw new ApiError(400, CURSOR_ERROR);
}

/** What a list gives back: its rows, its total, the next page's cursor (null on the last page, or when the area has none) and the page's number. */
export type Paged<R> = { rows: R[]; total: number; nextCursor: string | null; page?: number };

/**
 * One page of `table`'s rows that match `where`, newest first: by OFFSET for `page=N`, by keyset
 * `(created_at, id) < (…)` after a cursor. Reads one row more than the page to know whether a next
 * page exists; its cursor carries the last row's createdAt to the microsecond (read back by id, as
 * a JavaScript Date keeps milliseconds only).
 */
export async function newestPage<R extends { id: string }>(
  db: Db,
  rows: Listing<R>,
  list: { from: NewestFirst; where: SQL | undefined; identity: ListIdentity },
  page: Page,
): Promise<{ rows: R[]; nextCursor: string | null; page?: number }> {
  const { from, identity } = list;
  const position = page.cursor?.after ? decodeCursor(page.cursor.key, identity, page.cursor.after) : undefined;
  const where = position
    ? and(list.where, sql`(${from.createdAt}, ${from.id}) < (${position.at}::timestamptz, ${position.id})`)
    : list.where;
  const found = await rows
    .where(where)
    .orderBy(...newestFirst(from))
    .limit(page.limit + (page.cursor ? 1 : 0))
    .offset(position ? 0 : page.offset);
  const thisPage = position ? position.page : Math.floor(page.offset / page.limit) + 1;
  if (!page.cursor || found.length <= page.limit) return { rows: found, nextCursor: null, page: thisPage };
  const pageRows = found.slice(0, page.limit);
  const last = pageRows[pageRows.length - 1];
  const [{ at }] = await db
    .select({ at: sql<string>`${from.createdAt}::text` })
    .from(from)
    .where(sql`${from.id} = ${last.id}`);
  return {
    rows: pageRows,
    nextCursor: encodeCursor(page.cursor.key, identity, { at, id: last.id, page: thisPage + 1 }),
    page: thisPage,
  };
}

/**
 * `newestPage` and the count of every row of the list (exact, or up to `countCap` rows: the
 * answer's `total` is then at most the cap, decision 068), read side by side.
 */
export async function newestPageWithTotal<R extends { id: string }>(
  db: Db,
  rows: Listing<R>,
  list: { from: NewestFirst; where: SQL | undefined; identity: ListIdentity; countCap?: number },
  page: Page,
): Promise<Paged<R>> {
  const [found, total] = await Promise.all([newestPage(db, rows, list, page), countRows(db, list)]);
  return { ...found, total };
}

/** The rows of `from` that match `where`, counted up to `countCap` (when given). */
export async function countRows(db: Db, list: { from: PgTable; where: SQL | undefined; countCap?: number }) {
  if (list.countCap === undefined) {
    const [{ total }] = await db.select({ total: count() }).from(list.from).where(list.where);
    return total;
  }
  const capped = db
    .select({ one: sql`1` })
    .from(list.from)
    .where(list.where)
    .limit(list.countCap)
    .as("capped");
  const [{ total }] = await db.select({ total: count() }).from(capped);
  return total;
}

/**
 * The page of `rows` that match `where` in `order`, and the count of every row of `from` that
 * matches the same `where`, read side by side.
 */
export async function pageWithTotal<R>(
  db: Db,
  rows: Listing<R>,
  list: { from: PgTable; where: SQL | undefined; order: SQL[] },
  page: Page,
): Promise<{ rows: R[]; total: number }> {
  const [pageRows, [{ total }]] = await Promise.all([
    rows
      .where(list.where)
      .orderBy(...list.order)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(list.from).where(list.where),
  ]);
  return { rows: pageRows, total };
}

/** Newest first: createdAt, then id, both descending (the order of the (…, created_at desc, id desc) indexes). */
export function newestFirst(table: { createdAt: PgColumn; id: PgColumn }): SQL[] {
  return [desc(table.createdAt), desc(table.id)];
}
