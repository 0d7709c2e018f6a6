/**
 * What the storefront's statements share: the 404 Response a missing shop or page is, and the
 * column lists and row revival that keep hand-written statements in step with the drizzle schema.
 */
import { getTableColumns, type Table } from "drizzle-orm";

export const notFound = (message: string) => new Response(message, { status: 404, statusText: "Not Found" });

/** `alias."column" as "key"` for every column of a drizzle table, so hand-written statements stay in step with the schema. */
export function selectList(table: Table, alias: string): string {
  return Object.entries(getTableColumns(table))
    .map(([key, column]) => `${alias}."${column.name}" as "${key}"`)
    .join(", ");
}

/** Rows that came through json_agg have their timestamps as text: made Dates again, as drizzle would give them. */
export function revive<T>(table: Table, row: Record<string, unknown>): T {
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    if (column.dataType === "date" && typeof row[key] === "string") row[key] = new Date(row[key] as string);
  }
  return row as T;
}
