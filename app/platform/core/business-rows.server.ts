/**
 * A business's one row of a table, read or locked for update: 404 with the table's own wording
 * ("Order not found") when the business has no such row, so that another business's ids answer
 * exactly as ids that do not exist (tenant isolation).
 */
import { and, eq, type SQL } from "drizzle-orm";
import type { Db, Tx } from "../../../db/client";
import { installations, orders, pages, products } from "../../../db/schema";
import { ApiError } from "./http.server";

type BusinessTable = typeof products | typeof orders | typeof pages | typeof installations;

/** The business's row of `table` that `match` picks. */
export async function businessRow<T extends BusinessTable>(
  db: Db,
  table: T,
  businessId: string,
  match: SQL,
  notFound: string,
): Promise<T["$inferSelect"]> {
  return found(await ownRows(db, table, businessId, match), notFound);
}

/** The business's row of `table` with this id, locked for update in the transaction. */
export async function lockBusinessRow<T extends BusinessTable>(
  tx: Tx,
  table: T,
  businessId: string,
  id: string,
  notFound: string,
): Promise<T["$inferSelect"]> {
  return found(await ownRows(tx, table, businessId, eq(table.id, id)).for("update"), notFound);
}

function ownRows(db: Db, table: BusinessTable, businessId: string, match: SQL) {
  return db
    .select()
    .from(table as BusinessTable)
    .where(and(eq(table.businessId, businessId), match));
}

function found<R>(rows: unknown[], notFound: string): R {
  if (!rows[0]) throw new ApiError(404, notFound);
  return rows[0] as R;
}
