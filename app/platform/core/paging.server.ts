/**
 * One page of a list and the count of every row the list's filter matches, read side by side:
 * the shape of the platform's paginated answers (`{ rows, total }`).
 */
import { count, desc, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../../../db/client";

export type Page = { limit: number; offset: number };

/** A select of its columns and joins, waiting for its filter, its order and its page. */
type Listing<R> = {
  where(where: SQL | undefined): {
    orderBy(...order: SQL[]): { limit(limit: number): { offset(offset: number): PromiseLike<R[]> } };
  };
};

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
