/**
 * The merchant admin's orders list (decision 018, decision 068): its filter read from the URL, a
 * page of it by keyset with the count of every match, and the CSV export of the same filter.
 */
import { and, asc, count, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { orders, ORDER_STATUSES, type OrderStatus } from "../../../db/schema";
import { countOf, orderStatusCounts as statusCounters } from "./queries.server";
import { MIN_TEXT_SEARCH, ORDER_SORTS, isFiltered, type OrderFilter, type OrderSort } from "./order-filter";
import { decodeCursor, encodeCursor } from "../core/paging.server";
import { ADMIN_PAGE_SIZE, escapeLike } from "./admin-paging.server";

// The orders list: search, status, a date range in the business's time zone, four sorts, and the
// CSV export of the same filter. Every shape is served by an index (decision 018):
// (business_id, created_at desc, id desc) for the date sorts and ranges, (business_id, status,
// created_at desc) for a status, (business_id, amount desc, id desc) for the amount sorts, and the
// trigram index on the orders' search_text for the search (decision 095).

export {
  ORDER_SORTS,
  ORDER_SORT_LABELS,
  MIN_TEXT_SEARCH,
  orderFilterQuery,
  isFiltered,
  type OrderSort,
  type OrderFilter,
} from "./order-filter";
const MAX_SEARCH = 100;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
function isCalendarDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1970 && y <= 9999 && t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/**
 * The orders list's filter from its query string (`q`, `status`, `from`, `to`, `sort`). Pages never
 * fail on a bad link: a value that cannot be used is left out and named in `notices`.
 */
export function parseOrderFilter(
  params: URLSearchParams,
  timeZone: string,
): { filter: OrderFilter; notices: string[] } {
  const notices: string[] = [];
  const q = (params.get("q") ?? "").trim().slice(0, MAX_SEARCH);
  const rawStatus = params.get("status") ?? "";
  const status = (ORDER_STATUSES as readonly string[]).includes(rawStatus) ? (rawStatus as OrderStatus) : null;
  if (rawStatus && !status) notices.push(`There is no order status "${rawStatus.slice(0, 40)}": showing every status.`);
  const date = (name: "from" | "to", label: string) => {
    const v = (params.get(name) ?? "").trim();
    if (!v) return null;
    if (isCalendarDate(v)) return v;
    notices.push(`"${v.slice(0, 40)}" is not a date (${label}): it was left out.`);
    return null;
  };
  let from = date("from", "From");
  let to = date("to", "To");
  if (from && to && from > to) {
    notices.push(`The range ended (${to}) before it started (${from}): the dates were swapped.`);
    [from, to] = [to, from];
  }
  const rawSort = params.get("sort") ?? "";
  const sort = (ORDER_SORTS as readonly string[]).includes(rawSort) ? (rawSort as OrderSort) : "newest";
  return { filter: { q, status, from, to, sort, timeZone }, notices };
}

/** Whether a search looks for text (the trigram index), not an order number. */
const isTextSearch = (q: string) => Boolean(q) && q.length >= MIN_TEXT_SEARCH && !/^#\d+$/.test(q);

/**
 * What the search's index is asked for (decision 095). The trigram index answers `LIKE '%q%'` by
 * intersecting the posting lists of every trigram of q, and a word that nearly every order holds
 * ("customer" in "Customer 12", a shop's own domain in an e-mail) has a list of every order: at a
 * million orders that intersection alone took 22-40 ms, against 5 for the rest of the pattern. So q
 * is cut into its words, each with the characters around it in q (" 12" keeps the space before it,
 * which makes its trigrams those of a word's start), and a word that more than a fifth of a sample
 * of the orders' search texts holds is left out of what the index is asked; the whole of q is
 * then checked on each row the index gives (`strpos`, an exact substring of the lowercased text), so
 * the matches are exactly those of `LIKE '%q%'`. With no sample (a table never analyzed), or when no
 * word is common or every word is, the index is asked for all of q.
 */
export function searchParts(q: string, sample: readonly string[]): string[] {
  if (sample.length < 20) return [q];
  const parts: { text: string; common: boolean }[] = [];
  for (const m of q.matchAll(/[\p{L}\p{N}]+/gu)) {
    const start = m.index!;
    const end = start + m[0].length;
    const left = start > 0;
    const right = end < q.length;
    // trigrams pg_trgm takes from a word inside '%…%': two blanks before a word with a start, one
    // after a word with an end; a part without a trigram would ask the index for every row
    if (m[0].length + (left ? 2 : 0) + (right ? 1 : 0) < 3) continue;
    // as typed (PostgreSQL lowers it, as it lowered the column); lowered here only to count holders
    const text = q.slice(left ? start - 1 : start, right ? end + 1 : end);
    const lower = text.toLowerCase();
    const holders = sample.reduce((n, s) => n + (s.includes(lower) ? 1 : 0), 0);
    parts.push({ text, common: holders > sample.length / 5 });
  }
  const rare = parts.filter((p) => !p.common).map((p) => p.text);
  return rare.length > 0 && rare.length < parts.length ? rare : [q];
}

/** A sample of the orders' search texts: PostgreSQL's statistics of the column (every business's), read again every 10 minutes. */
const SAMPLE_FOR_MS = 10 * 60_000;
const samples = new WeakMap<Db, { until: number; values: Promise<readonly string[]> }>();
export function searchSample(db: Db, options: { fresh?: boolean } = {}): Promise<readonly string[]> {
  const held = samples.get(db);
  if (held && held.until > performance.now() && !options.fresh) return held.values;
  const entry = { until: performance.now() + SAMPLE_FOR_MS, values: Promise.resolve<readonly string[]>([]) };
  entry.values = db
    .execute<{ values: string[] | null }>(
      sql`select coalesce(histogram_bounds::text::text[], '{}') || coalesce(most_common_vals::text::text[], '{}') as "values"
          from pg_stats where schemaname = current_schema() and tablename = 'orders' and attname = 'search_text'`,
    )
    .then((rows) => [...rows].flatMap((r) => r.values ?? []))
    .catch(() => {
      // searched without a sample this time (the whole search asked of the index), read again next time
      if (samples.get(db) === entry) samples.delete(db);
      return [];
    });
  samples.set(db, entry);
  return entry.values;
}

/** The sample a filter's search needs: none when it looks for no text. */
const sampleFor = (db: Db, filter: OrderFilter): Promise<readonly string[]> =>
  isTextSearch(filter.q) ? searchSample(db) : Promise.resolve([]);

/** The search's conditions: an order number, or text in the number, name, phone (also as digits) or e-mail. */
function searchCondition(q: string, sample: readonly string[]): SQL | undefined {
  if (!q) return undefined;
  const number = q.replace(/^#/, "");
  if (q.length < MIN_TEXT_SEARCH || /^#\d+$/.test(q)) return eq(orders.orderNumber, number);
  const patterns = [q];
  const digits = q.replace(/[\s().+-]/g, "");
  if (/^\d+$/.test(digits) && digits !== q && digits.length >= MIN_TEXT_SEARCH) patterns.push(digits);
  return or(
    ...patterns.map((p) => {
      const parts = searchParts(p, sample);
      const indexed = and(...parts.map((part) => sql`${orders.searchText} like lower(${`%${escapeLike(part)}%`})`))!;
      return parts.length === 1 && parts[0] === p
        ? indexed
        : sql`(${indexed} and strpos(${orders.searchText}, lower(${p})) > 0)`;
    }),
  );
}

/** Where the filter's orders are, always within the business. */
function orderWhere(businessId: string, f: OrderFilter, sample: readonly string[] = []): SQL {
  const conditions: (SQL | undefined)[] = [eq(orders.businessId, businessId)];
  if (f.status) conditions.push(eq(orders.status, f.status));
  // local midnight of the day in the business's zone; `to` is inclusive: before the next day's midnight
  if (f.from) conditions.push(sql`${orders.createdAt} >= (${f.from}::date::timestamp at time zone ${f.timeZone})`);
  if (f.to) conditions.push(sql`${orders.createdAt} < ((${f.to}::date + 1)::timestamp at time zone ${f.timeZone})`);
  conditions.push(searchCondition(f.q, sample));
  return and(...conditions)!;
}

function orderSort(sort: OrderSort) {
  switch (sort) {
    case "oldest":
      return [asc(orders.createdAt), asc(orders.id)];
    case "amount_desc":
      return [desc(orders.amount), desc(orders.id)];
    case "amount_asc":
      return [asc(orders.amount), asc(orders.id)];
    default:
      return [desc(orders.createdAt), desc(orders.id)];
  }
}

const listColumns = {
  id: orders.id,
  orderNumber: orders.orderNumber,
  status: orders.status,
  createdAt: orders.createdAt,
  customerName: orders.customerName,
  customerPhone: orders.customerPhone,
  customerEmail: orders.customerEmail,
  amount: orders.amount,
  currency: orders.currency,
  paymentStatus: orders.paymentStatus,
  paymentMethod: orders.paymentMethod,
  paymentMethodName: orders.paymentMethodName,
  deliveryMethod: orders.deliveryMethod,
  itemCount: sql<number>`(select coalesce(sum(i.quantity), 0)::int from order_items i where i.order_id = "orders"."id")`,
  /** the exact stored time (microseconds), for the next page's or batch's keyset */
  cursorAt: sql<string>`${orders.createdAt}::text`,
};
export type OrderListRow = {
  id: string;
  orderNumber: string;
  status: OrderStatus;
  createdAt: Date;
  customerName: string;
  customerPhone: string;
  customerEmail: string | null;
  amount: number;
  currency: string;
  paymentStatus: string;
  paymentMethod: string;
  paymentMethodName: string | null;
  deliveryMethod: string;
  itemCount: number;
  cursorAt: string;
};

/**
 * A text search's first look (decision 091): the rows of the rest of the filter read in the list's
 * order, up to this many, among which the page's matches are looked for before the trigram index.
 */
export const SEARCH_PROBE_ROWS = 2_000;
/** `offset 0`, written out (drizzle leaves a zero offset out): a subquery with one is planned apart from its query. */
const PLANNED_APART = sql`0` as unknown as number;

/** A filtered view's match count stops here (decision 068): the page says "10,000+". */
export const ORDER_MATCH_CAP = 10_000;

/** Where a page of the list starts or ends: the sort's key of a row (its createdAt to the microsecond, or its amount), its id, and the page's number. */
type Position = { at: string; id: string; page: number };

/**
 * The rows after (`forward`) or before a position in the sort's order, written so that the key
 * bounds the index scan: `k <= k0 and (k < k0 or id < id0)` (decision 018's indexes serve every sort).
 */
function keysetCondition(sort: OrderSort, after: { at: string; amount: number; id: string }, forward = true): SQL {
  const byAmount = sort === "amount_desc" || sort === "amount_asc";
  const down = (sort === "newest" || sort === "amount_desc") === forward;
  const k = byAmount ? sql`${orders.amount}` : sql`${orders.createdAt}`;
  const k0: SQL = byAmount ? sql`${after.amount}::int` : sql`${after.at}::timestamptz`;
  return down
    ? sql`${k} <= ${k0} and (${k} < ${k0} or ${orders.id} < ${after.id})`
    : sql`${k} >= ${k0} and (${k} > ${k0} or ${orders.id} > ${after.id})`;
}

const reversed = (sort: OrderSort): OrderSort =>
  ({ newest: "oldest", oldest: "newest", amount_desc: "amount_asc", amount_asc: "amount_desc" })[sort] as OrderSort;

/** The list's cursor (`after` / `before` in its links): signed with the sort and the business, like the App API's. */
const cursorIdentity = (businessId: string, sort: OrderSort) => ({ list: `admin-orders:${sort}`, scope: businessId });
const positionOf = (sort: OrderSort, row: OrderListRow, page: number): Position => ({
  at: sort === "amount_desc" || sort === "amount_asc" ? String(row.amount) : row.cursorAt,
  id: row.id,
  page,
});

/**
 * The statements of a page of the list: `probe` (a text search's first look, decision 091: the
 * newest SEARCH_PROBE_ROWS rows of the rest of the filter, in the list's order, where a common
 * search finds its page; only without an offset) and `page` (every match). The planner walks the
 * sort's index and filters, expecting a search's matches spread evenly; when they are all old (a
 * customer of last year) it read a million rows for the first page (2.4 s at 1M orders). So a text
 * search's `page` reads the trigram index's matches in a subquery planned apart (OFFSET 0), then
 * sorts them, whatever their age: their sort keys only, the page's rows then read by id (decision
 * 095, later note).
 */
function pageStatements(
  db: Db,
  businessId: string,
  filter: OrderFilter,
  at: { keyset: SQL | null; sort: OrderSort; offset: number; size: number; sample: readonly string[] },
) {
  const where = orderWhere(businessId, filter, at.sample);
  const order = orderSort(at.sort);
  if (!isTextSearch(filter.q))
    return {
      probe: null,
      page: db
        .select(listColumns)
        .from(orders)
        .where(at.keyset ? and(where, at.keyset) : where)
        .orderBy(...order)
        .limit(at.size)
        .offset(at.offset),
    };
  const rest = and(orderWhere(businessId, { ...filter, q: "" }), at.keyset ?? undefined);
  const newest = db
    .select()
    .from(orders)
    .where(rest)
    .orderBy(...order)
    .limit(SEARCH_PROBE_ROWS)
    .as("orders");
  // only the sort's keys of every match (a broad search matches thousands: sorting their whole rows
  // cost a quarter of the page at 1M orders), then the page's own rows by id
  const matches = db
    .select({ id: orders.id, createdAt: orders.createdAt, amount: orders.amount })
    .from(orders)
    .where(at.keyset ? and(where, at.keyset) : where)
    .offset(PLANNED_APART)
    .as("orders");
  const pageIds = db
    .select({ id: matches.id })
    .from(matches)
    .orderBy(...order)
    .limit(at.size)
    .offset(at.offset);
  return {
    probe:
      at.offset === 0
        ? db
            .select(listColumns)
            .from(newest)
            .where(searchCondition(filter.q, at.sample))
            .orderBy(...order)
            .limit(at.size)
        : null,
    page: db
      .select(listColumns)
      .from(orders)
      .where(inArray(orders.id, pageIds))
      .orderBy(...order),
  };
}

/** The statements of searchOrders' first page (its probe when it has one, its page, the count of every match), for EXPLAIN in tests. */
export function searchOrderStatements(
  db: Db,
  businessId: string,
  filter: OrderFilter,
  options: { page: number; pageSize?: number; sample?: readonly string[] },
) {
  const size = options.pageSize ?? ADMIN_PAGE_SIZE;
  const sample = options.sample ?? [];
  const capped = db
    .select({ one: sql`1` })
    .from(orders)
    .where(orderWhere(businessId, filter, sample))
    .limit(ORDER_MATCH_CAP)
    .as("capped");
  const { probe, page } = pageStatements(db, businessId, filter, {
    keyset: null,
    sort: filter.sort,
    offset: (options.page - 1) * size,
    size,
    sample,
  });
  return { probe, page, count: db.select({ n: count() }).from(capped) };
}

/**
 * A page of the business's orders matching the filter, and how many match in all: by `page`
 * (OFFSET), or after / before a cursor of the previous page (keyset: the same cost at any depth).
 * The total of the whole list and of a status is read from the counters the orders' triggers keep;
 * a search or a date range counts its matches up to ORDER_MATCH_CAP (`capped`). `next` and `prev`
 * are the cursors of the pages around this one (null at an end), when `cursors.key` is given.
 */
export async function searchOrders(
  db: Db,
  businessId: string,
  filter: OrderFilter,
  options: {
    page: number;
    pageSize?: number;
    cursors?: { key: string; after?: string | null; before?: string | null };
  },
) {
  const size = options.pageSize ?? ADMIN_PAGE_SIZE;
  const identity = cursorIdentity(businessId, filter.sort);
  const { key, after, before } = options.cursors ?? {};
  const token = after ?? before;
  let position: Position | null = null;
  let invalidCursor = false;
  if (key && token) {
    try {
      position = decodeCursor(key, identity, token);
      const byAmount = filter.sort === "amount_desc" || filter.sort === "amount_asc";
      if (byAmount && !/^-?\d{1,10}$/.test(position.at)) throw new Error("not an amount");
    } catch {
      invalidCursor = true;
      position = null;
    }
  }
  const backward = Boolean(position && !after);
  const sample = await sampleFor(db, filter);
  const keyset =
    position &&
    keysetCondition(filter.sort, { at: position.at, amount: Number(position.at), id: position.id }, !backward);
  const counting = !isFiltered(filter)
    ? countOf(db, businessId, "orders").then((n) => ({ n, capped: false }))
    : !filter.q && !filter.from && !filter.to && filter.status
      ? statusCounters(db, businessId).then((c) => ({ n: c[filter.status!], capped: false }))
      : searchOrderStatements(db, businessId, filter, { page: 1, pageSize: size, sample }).count.then(([r]) => ({
          n: r.n,
          capped: r.n >= ORDER_MATCH_CAP,
        }));
  const { probe, page: all } = pageStatements(db, businessId, filter, {
    keyset: keyset || null,
    sort: backward ? reversed(filter.sort) : filter.sort,
    offset: position ? 0 : (options.page - 1) * size,
    size: size + 1,
    sample,
  });
  // a text search's page from its probe when that holds a whole page (size + 1 rows: then they are
  // exactly its first matches), else from every match
  const pageOf = async (): Promise<OrderListRow[]> => {
    const first = probe ? ((await probe) as OrderListRow[]) : [];
    return first.length > size ? first : ((await all) as OrderListRow[]);
  };
  const [found, { n: total, capped }] = await Promise.all([pageOf(), counting]);
  const more = found.length > size;
  let rows = found.slice(0, size);
  let page = position ? position.page : options.page;
  if (backward) {
    rows = rows.reverse();
    // nothing before the rows read: this is the first page
    if (!more) page = 1;
  }
  const hasNext = backward ? true : more;
  const hasPrev = backward ? more : page > 1;
  const cursor = (row: OrderListRow | undefined, n: number) =>
    key && row ? encodeCursor(key, identity, positionOf(filter.sort, row, n)) : null;
  return {
    rows,
    total,
    capped,
    page,
    next: hasNext && rows.length ? cursor(rows[rows.length - 1], page + 1) : null,
    prev: hasPrev && rows.length ? cursor(rows[0], page - 1) : null,
    invalidCursor,
  };
}

const exportColumns = {
  ...listColumns,
  subtotal: orders.subtotal,
  discount: orders.discount,
  deliveryFee: orders.deliveryFee,
  address: orders.address,
  notes: orders.notes,
  items: sql<string>`(select coalesce(string_agg(i.quantity || ' x ' || i.name, '; ' order by i.id), '') from order_items i where i.order_id = "orders"."id")`,
};
export type OrderExportRow = OrderListRow & {
  subtotal: number;
  discount: number;
  deliveryFee: number;
  address: string | null;
  notes: string | null;
  items: string;
  cursorAt: string;
};

/**
 * Every order of the business matching the filter, in the filter's order, in batches read by
 * keyset (no offset, no long transaction).
 */
export async function* ordersForExport(
  db: Db,
  businessId: string,
  filter: OrderFilter,
  batchSize = 500,
): AsyncGenerator<OrderExportRow[]> {
  const where = orderWhere(businessId, filter, await sampleFor(db, filter));
  let after: { at: string; amount: number; id: string } | null = null;
  for (;;) {
    const keyset = after ? keysetCondition(filter.sort, after) : undefined;
    const rows: OrderExportRow[] = await db
      .select(exportColumns)
      .from(orders)
      .where(keyset ? and(where, keyset) : where)
      .orderBy(...orderSort(filter.sort))
      .limit(batchSize);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < batchSize) return;
    const last: OrderExportRow = rows[rows.length - 1];
    after = { at: last.cursorAt, amount: last.amount, id: last.id };
  }
}

/**
 * How many orders match the filter, exactly: the counters the orders' triggers keep for the whole
 * list and a status (decision 068), else a count of the matches (the export job's estimate of its
 * size, read once in the background, never on a page view).
 */
export async function countMatchingOrders(db: Db, businessId: string, filter: OrderFilter): Promise<number> {
  if (!isFiltered(filter)) return countOf(db, businessId, "orders");
  if (!filter.q && !filter.from && !filter.to && filter.status)
    return (await statusCounters(db, businessId))[filter.status];
  const sample = await sampleFor(db, filter);
  const [r] = await db
    .select({ n: count() })
    .from(orders)
    .where(orderWhere(businessId, filter, sample));
  return r.n;
}
