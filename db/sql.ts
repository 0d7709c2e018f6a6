import { getTableColumns, sql, type Column, type SQL, type Table } from "drizzle-orm";
import { preparesStatements } from "./client";

/** An array parameter of the given element type (drizzle expands a plain array parameter into a tuple). */
function typedArray(values: readonly unknown[], type: "text" | "int"): SQL {
  if (values.length === 0) return sql.raw(`'{}'::${type}[]`);
  return sql`ARRAY[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]${sql.raw(`::${type}[]`)}`;
}

/** A text[] parameter. */
export const textArray = (values: readonly string[]): SQL => typedArray(values, "text");

/** An int[] parameter. */
export const intArray = (values: readonly number[]): SQL => typedArray(values, "int");

/**
 * A constant statement text with its parameters, run straight through the postgres.js client under a
 * drizzle database or transaction: prepared once per connection (unless createDb was told `prepare: false`), no
 * query building. For the busiest statements, where building SQL costs more than running it
 * (docs/performance.md, B2e). Arrays are passed as parameters (`$3::text[]`). drizzle makes the client's
 * json, jsonb and timestamp serializers pass values through, so pass those as strings
 * (`JSON.stringify(data)`, `date.toISOString()`).
 */
export function rawQuery<T = Record<string, unknown>>(db: unknown, text: string, params: unknown[]): Promise<T[]> {
  const d = db as { session?: { client?: unknown }; $client?: unknown };
  const client = (d.session?.client ?? d.$client) as
    { unsafe(text: string, params: unknown[], options: { prepare: boolean }): Promise<T[]> } | undefined;
  if (!client) throw new Error("rawQuery: no postgres.js client under this database");
  return client.unsafe(text, params, { prepare: preparesStatements() });
}

/**
 * A drizzle statement built once per database handle instead of on every call: `build` makes the
 * query with `sql.placeholder`s and `.prepare(name)`; the answer gives each handle its own (handles
 * are the web's pool, a test's database, a read replica). For statements every request runs, where
 * drizzle's building costs more than the database's answer.
 */
export function perDatabase<D extends object, Q>(build: (db: D) => Q): (db: D) => Q {
  const built = new WeakMap<D, Q>();
  return (db) => {
    let query = built.get(db);
    if (!query) built.set(db, (query = build(db)));
    return query;
  };
}

/** The SQLSTATE of a database error, also when drizzle wrapped it. */
export function pgErrorCode(error: unknown): string | undefined {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code ?? e?.cause?.code;
}

/**
 * The constraint a unique violation (SQLSTATE 23505) broke, also when drizzle wrapped the error;
 * undefined for any other error. The constraint decides which field really collided.
 */
export function uniqueViolation(error: unknown): string | undefined {
  if (pgErrorCode(error) !== "23505") return undefined;
  const e = error as {
    constraint_name?: string;
    constraint?: string;
    cause?: { constraint_name?: string; constraint?: string };
  };
  return e.constraint_name ?? e.constraint ?? e.cause?.constraint_name ?? e.cause?.constraint ?? "";
}

/**
 * For hand-written statements that return whole rows of several tables: the select list of a
 * table's columns under a prefix (`i."id" as "i.id"`), and the row read back into the table's
 * TypeScript shape with each column's own driver mapping (what drizzle does for its own selects).
 */
const selectLists = new WeakMap<Table, Map<string, string>>();

export function selectColumns(table: Table, alias: string): string {
  let byAlias = selectLists.get(table);
  if (!byAlias) selectLists.set(table, (byAlias = new Map()));
  let list = byAlias.get(alias);
  if (list === undefined)
    byAlias.set(
      alias,
      (list = Object.entries(getTableColumns(table))
        .map(([key, column]) => `${alias}."${column.name}" as "${alias}.${key}"`)
        .join(", ")),
    );
  return list;
}

const readers = new WeakMap<Table, Map<string, [key: string, field: string, column: Column][]>>();

export function readColumns<T extends Table>(table: T, alias: string, row: Record<string, unknown>): T["$inferSelect"] {
  let byAlias = readers.get(table);
  if (!byAlias) readers.set(table, (byAlias = new Map()));
  let fields = byAlias.get(alias);
  if (!fields)
    byAlias.set(
      alias,
      (fields = Object.entries(getTableColumns(table)).map(([key, column]) => [key, `${alias}.${key}`, column])),
    );
  const out: Record<string, unknown> = {};
  for (const [key, field, column] of fields) {
    const value = row[field];
    out[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return out as T["$inferSelect"];
}
