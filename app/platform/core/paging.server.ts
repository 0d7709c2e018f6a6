/**
 * One page of a list and the count of every row the list's filter matches, read side by side:
 * the shape of the platform's paginated answers (`{ rows, total }`).
 */
import { count, desc, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../../../db/client";

export type Page = { limit: number; offset: number };

/** A select with its filter and order, waiting for its page's limit and offset. */
type Pageable<R> = { limit(limit: number): { offset(offset: number): PromiseLike<R[]> } };

export async function pageWithTotal<R>(
  db: Db,
  rows: Pageable<R>,
  counted: { from: PgTable; where: SQL | undefined },
  page: Page,
): Promise<{ rows: R[]; total: number }> {
  const [pageRows, [{ total }]] = await Promise.all([
    rows.limit(page.limit).offset(page.offset),
    db.select({ total: count() }).from(counted.from).where(counted.where),
  ]);
  return { rows: pageRows, total };
}

/** Newest first: createdAt, then id, both descending (the order of the (…, created_at desc, id desc) indexes). */
export function newestFirst(table: { createdAt: PgColumn; id: PgColumn }): SQL[] {
  return [desc(table.createdAt), desc(table.id)];
}
