import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation } from "@remix-run/react";
import type { FormEvent } from "react";
import { useEffect, useState } from "react";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import type { ApiError } from "~/platform/core/http.server";
import { isValidTimeZone } from "~/platform/accounts/business-settings.server";
import {
  formatMoney,
  orderStatusCounts,
  pageCount,
  parseOrderFilter,
  readPage,
  searchOrders,
} from "~/platform/catalog/admin-queries.server";
import {
  MIN_TEXT_SEARCH,
  ORDER_SORTS,
  ORDER_SORT_LABELS,
  isFiltered,
  orderFilterQuery,
} from "~/platform/catalog/order-filter";
import {
  bulkMoveOrders,
  MAX_BULK_MOVE,
  type BulkMoveResult,
  type BulkTarget,
} from "~/platform/orders/bulk-moves.server";
import { parseOrderStatus } from "~/platform/orders/status.server";
import { orderStatusLabel, paymentMethodLabel, paymentStatusLabel } from "~/platform/orders/labels";
import { ORDER_STATUSES } from "../../db/schema";
import { EmptyState } from "~/components/area-layout";
import { CsrfInput } from "~/components/csrf";
import { Pagination, pageHref } from "~/components/pagination";
import { SubmitButton } from "~/components/submit-button";
import { ORDER_TONE, statusLabel } from "~/components/status-badge";
import { DataTable, EmptyList, ErrorAlert, FilterPill, PageHeader, SuccessNotice } from "~/components/page-parts";
import { useShopFormat } from "~/components/shop-format";

export const meta: MetaFunction = () => [{ title: "Orders · Admin" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { business } = await requireMerchant(request, context, "orders");
  const url = new URL(request.url);
  const timeZone = isValidTimeZone(business.timezone) ? business.timezone : "UTC";
  const { filter, notices } = parseOrderFilter(url.searchParams, timeZone);
  // Next / Previous by cursor (keyset: the same cost at any depth); `page=N` links still work
  const cursors = {
    key: context.env.sessionSecret,
    after: url.searchParams.get("after"),
    before: url.searchParams.get("before"),
  };
  const [{ rows, total, capped, page, next, prev, invalidCursor }, counts] = await Promise.all([
    searchOrders(context.db, business.id, filter, { page: readPage(url), cursors }),
    orderStatusCounts(context.db, business.id),
  ]);
  if (invalidCursor) notices.push("That page link is no longer valid: showing the first page.");
  return json({
    statuses: [...ORDER_STATUSES],
    filter: { q: filter.q, status: filter.status, from: filter.from, to: filter.to, sort: filter.sort },
    filtered: isFiltered(filter),
    shortSearch: filter.q !== "" && filter.q.length < MIN_TEXT_SEARCH && !/^#?\d+$/.test(filter.q),
    notices,
    timeZone,
    page,
    pages: Math.max(pageCount(total), page),
    total,
    capped,
    next,
    prev,
    counts,
    orders: rows.map((o) => ({
      id: o.id,
      number: o.orderNumber,
      createdAt: o.createdAt.toISOString(),
      customer: o.customerName,
      contact: o.customerEmail ?? o.customerPhone,
      items: o.itemCount,
      total: formatMoney(o.amount, o.currency, business.locale),
      status: o.status,
      deliveryMethod: o.deliveryMethod,
      paymentStatus: o.paymentStatus,
      paymentMethod: paymentMethodLabel(o.paymentMethod, o.paymentMethodName),
    })),
  });
}

/** Bulk moves that cannot be undone (an order delivered or cancelled is closed): asked first, naming the count. */
const FINAL_TARGETS: readonly BulkTarget[] = ["CANCELLED", "DELIVERED", "FULFILLED"];

/** What the merchant is asked before a bulk move that cannot be undone. */
type BulkConfirm = { to: BulkTarget; orderIds: string[] };

type BulkAnswer = {
  error: string | null;
  results: BulkMoveResult[] | null;
  to: BulkTarget | null;
  confirm: BulkConfirm | null;
};
const answer = (a: Partial<BulkAnswer>, status = 200) =>
  json<BulkAnswer>({ error: null, results: null, to: null, confirm: null, ...a }, status);

const refused = { error: (e: ApiError): BulkAnswer => ({ error: e.message, results: null, to: null, confirm: null }) };

export async function action({ request, context }: ActionFunctionArgs) {
  const { business } = await requireMerchant(request, context, "orders");
  return formAction(request, context, refused, async (form) => {
    if (form.get("intent") !== "bulk-move") return answer({ error: "Unknown action" }, 400);
    let to: BulkTarget;
    try {
      to = form.get("status") === "FULFILLED" ? "FULFILLED" : parseOrderStatus(form.get("status"));
    } catch {
      return answer({ error: "Choose the status to move the selected orders to." }, 400);
    }
    const orderIds = [...new Set(form.getAll("orderIds").map(String).filter(Boolean))];
    if (orderIds.length === 0) return answer({ error: "Select at least one order." }, 400);
    if (orderIds.length > MAX_BULK_MOVE)
      return answer({ error: `Select at most ${MAX_BULK_MOVE} orders at once.` }, 400);
    // a move that cannot be undone is asked first, naming how many orders (the answer carries the selection back)
    if (FINAL_TARGETS.includes(to) && form.get("confirmed") !== "yes") return answer({ to, confirm: { to, orderIds } });
    const results = await bulkMoveOrders(context.db, business.id, orderIds, to);
    return answer({ results, to });
  });
}

/** A bulk target in words, for sentences ("moved to confirmed", "marked as fulfilled"). */
const targetWords = (to: BulkTarget) => (to === "FULFILLED" ? "fulfilled" : orderStatusLabel(to).toLowerCase());

const plural = (n: number) => (n === 1 ? "1 order" : `${n} orders`);

/** The question before a bulk move that cannot be undone: how many orders, what happens, and the way out. */
function ConfirmBulk({ confirm }: { confirm: BulkConfirm }) {
  const n = confirm.orderIds.length;
  const cancel = confirm.to === "CANCELLED";
  const question = cancel
    ? `Cancel ${plural(n)}?`
    : confirm.to === "FULFILLED"
      ? `Mark ${plural(n)} as fulfilled?`
      : `Mark ${plural(n)} as delivered?`;
  return (
    <section
      className="card confirm-bulk stack"
      role="alertdialog"
      aria-labelledby="confirm-bulk-head"
      aria-describedby="confirm-bulk-text"
      data-testid="confirm-bulk"
    >
      <h2 id="confirm-bulk-head">{question}</h2>
      <p id="confirm-bulk-text">
        {cancel
          ? `The ${n === 1 ? "order is" : `${n} orders are`} cancelled and no longer count as revenue; your apps are told. This cannot be undone.`
          : confirm.to === "FULFILLED"
            ? `Each order is moved through its remaining steps to picked up or delivered, by its delivery method. Closed orders cannot be reopened.`
            : `Delivered orders are closed and cannot be reopened.`}
      </p>
      <div className="row">
        <Form method="post">
          <CsrfInput />
          <input type="hidden" name="intent" value="bulk-move" />
          <input type="hidden" name="status" value={confirm.to} />
          <input type="hidden" name="confirmed" value="yes" />
          {confirm.orderIds.map((id) => (
            <input key={id} type="hidden" name="orderIds" value={id} />
          ))}
          <SubmitButton className={cancel ? "button danger" : "button primary"} busyLabel="Moving orders…">
            {cancel
              ? `Cancel ${plural(n)}`
              : confirm.to === "FULFILLED"
                ? `Mark ${plural(n)} as fulfilled`
                : `Mark ${plural(n)} as delivered`}
          </SubmitButton>
        </Form>
        <Link to="." className="button subtle">
          {cancel ? "Keep them" : "Not now"}
        </Link>
      </div>
    </section>
  );
}

const PAYMENT_TONE: Record<string, string> = {
  COMPLETED: "ok",
  PENDING: "warn",
  EXPIRED: "danger",
  FAILED: "danger",
  NONE: "",
};

function BulkResults({ results, to }: { results: BulkMoveResult[]; to: BulkTarget }) {
  const moved = results.filter((r) => r.ok);
  const refused = results.filter((r): r is Extract<BulkMoveResult, { ok: false }> => !r.ok);
  return (
    <div className="stack bulk-results" data-testid="bulk-results">
      <SuccessNotice show={moved.length}>
        {plural(moved.length)} {to === "FULFILLED" ? "marked as" : "moved to"} {targetWords(to)}:{" "}
        {moved.map((r) => `#${r.orderNumber}`).join(", ")}.
      </SuccessNotice>
      {refused.length ? (
        <div className="alert warning" role="alert">
          <strong>{refused.length === 1 ? "1 order was not moved" : `${refused.length} orders were not moved`}</strong>
          <ul>
            {refused.map((r) => (
              <li key={r.orderId}>
                {r.orderNumber ? `#${r.orderNumber}` : r.orderId}: {r.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

export default function AdminOrders() {
  const {
    statuses,
    filter,
    filtered,
    shortSearch,
    notices,
    timeZone,
    page,
    pages,
    total,
    capped,
    next,
    prev,
    counts,
    orders,
  } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // a finished bulk move clears the selection; a new page of the list does too
  useEffect(() => setSelected(new Set()), [result]);
  const ids = orders.map((o) => o.id).join(",");
  useEffect(() => setSelected((s) => new Set([...s].filter((id) => ids.split(",").includes(id)))), [ids]);

  const query = orderFilterQuery(filter);
  const href = (change: Record<string, string | null>) => pageHref("/admin/orders", { ...query, ...change });
  const csvHref = pageHref("/admin/orders/export.csv", query);
  const allSelected = orders.length > 0 && orders.every((o) => selected.has(o.id));
  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const { dates } = useShopFormat();
  const searching =
    navigation.state === "loading" && navigation.location?.pathname === "/admin/orders" && !navigation.formMethod;
  const navigate = useNavigate();
  // the address keeps only the filters that are set (without JavaScript the form sends them all, which reads the same)
  const applyFilters = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const value = (name: string) => String(data.get(name) ?? "").trim() || null;
    const sort = value("sort");
    navigate(
      pageHref("/admin/orders", {
        q: value("q"),
        status: value("status"),
        from: value("from"),
        to: value("to"),
        sort: sort === "newest" ? null : sort,
      }),
    );
  };

  return (
    <div className="stack-lg orders-page">
      <PageHeader
        title="Orders"
        className="page-head"
        action={
          <a href={csvHref} className="button" download data-testid="export-csv">
            Download CSV{filtered ? " of these orders" : ""}
          </a>
        }
      >
        Every order placed in your storefront. Dates are in your business's time zone, {timeZone}.
      </PageHeader>
      {notices.map((n) => (
        <p key={n} className="alert warning" role="alert">
          {n}
        </p>
      ))}

      <Form
        method="get"
        className="card order-filters"
        role="search"
        aria-label="Search and filter orders"
        onSubmit={applyFilters}
      >
        {filter.status ? <input type="hidden" name="status" value={filter.status} /> : null}
        <label className="order-filter-q">
          Search
          <input
            type="search"
            name="q"
            defaultValue={filter.q}
            key={filter.q}
            maxLength={100}
            placeholder="Order number, customer name, phone or e-mail"
            aria-describedby="order-search-help"
          />
        </label>
        <label>
          From
          <input type="date" name="from" defaultValue={filter.from ?? ""} key={`from-${filter.from}`} />
        </label>
        <label>
          To
          <input type="date" name="to" defaultValue={filter.to ?? ""} key={`to-${filter.to}`} />
        </label>
        <label>
          Sort
          <select name="sort" defaultValue={filter.sort} key={`sort-${filter.sort}`}>
            {ORDER_SORTS.map((s) => (
              <option key={s} value={s}>
                {ORDER_SORT_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        <div className="order-filter-actions">
          <button type="submit" className="button primary" aria-busy={searching || undefined}>
            {searching ? "Searching…" : "Apply filters"}
          </button>
          {filtered || filter.sort !== "newest" ? (
            <Link to="/admin/orders" className="button subtle">
              Clear filters
            </Link>
          ) : null}
        </div>
        <p id="order-search-help" className="muted small order-filter-help">
          {shortSearch
            ? `Searches shorter than ${MIN_TEXT_SEARCH} characters match order numbers only.`
            : "From and To include the whole day."}
        </p>
      </Form>

      <nav className="pills" aria-label="Filter by status">
        <FilterPill to={href({ status: null })} active={!filter.status}>
          All <span className="pill-count">{counts.all}</span>
        </FilterPill>
        {statuses.map((s) => (
          <FilterPill key={s} to={href({ status: s })} active={filter.status === s}>
            {statusLabel(s)} <span className="pill-count">{counts.byStatus[s]}</span>
          </FilterPill>
        ))}
      </nav>

      <ErrorAlert error={result?.error} />
      {result?.confirm ? <ConfirmBulk confirm={result.confirm} /> : null}
      {result?.results && result.to ? <BulkResults results={result.results} to={result.to} /> : null}

      {orders.length === 0 ? (
        filtered ? (
          <EmptyState title="No orders match">
            <p>
              {total > 0 ? (
                <Link to={href({})}>Go to the first page</Link>
              ) : (
                <>
                  Nothing matches {describeFilter(filter)}. <Link to="/admin/orders">Clear filters</Link>
                </>
              )}
            </p>
          </EmptyState>
        ) : (
          <EmptyList noun="orders" total={total} firstPage="/admin/orders">
            <p>Orders placed in your storefront appear here.</p>
          </EmptyList>
        )
      ) : (
        <Form method="post" className="stack" aria-label="Orders">
          <CsrfInput />
          <input type="hidden" name="intent" value="bulk-move" />
          <div className="bulk-bar" role="group" aria-label="Bulk status move">
            <p className="muted small" role="status">
              {capped ? `${total.toLocaleString("en-US")}+` : total} {total === 1 ? "order" : "orders"}
              {selected.size ? <strong data-testid="selected-count"> · {selected.size} selected</strong> : null}
            </p>
            <label className="bulk-target">
              Move selected to
              <select name="status" defaultValue="" required>
                <option value="" disabled>
                  Choose a status…
                </option>
                <option value="FULFILLED">Fulfilled (picked up or delivered)</option>
                {statuses
                  .filter((s) => s !== "PENDING")
                  .map((s) => (
                    <option key={s} value={s}>
                      {statusLabel(s)}
                    </option>
                  ))}
              </select>
            </label>
            <SubmitButton
              className="button primary"
              busyLabel="Moving orders…"
              disabled={hydrated && selected.size === 0}
            >
              Apply to selected
            </SubmitButton>
          </div>
          <div className="table-scroll">
            <DataTable
              className="table orders-table"
              rows={orders}
              rowKey={(o) => o.id}
              rowProps={(o) => ({
                "data-testid": "order-row",
                className: selected.has(o.id) ? "selected" : undefined,
              })}
              columns={[
                {
                  head: (
                    <label className="select-hit">
                      <input
                        type="checkbox"
                        aria-label="Select every order on this page"
                        checked={allSelected}
                        onChange={(e) => setSelected(e.target.checked ? new Set(orders.map((o) => o.id)) : new Set())}
                      />
                      <span className="select-all-text" aria-hidden="true">
                        Select all
                      </span>
                    </label>
                  ),
                  headClass: "select-col",
                  className: "select-col",
                  cell: (o) => (
                    <label className="select-hit">
                      <input
                        type="checkbox"
                        name="orderIds"
                        value={o.id}
                        aria-label={`Select order #${o.number}`}
                        checked={selected.has(o.id)}
                        onChange={(e) => toggle(o.id, e.target.checked)}
                      />
                    </label>
                  ),
                },
                {
                  head: "Order",
                  cell: (o) => (
                    <Link to={`/admin/orders/${o.id}`} aria-label={`Order #${o.number}`}>
                      <strong>#{o.number}</strong>
                    </Link>
                  ),
                },
                { head: "Date", className: "nowrap", cell: (o) => dates.dateTime(o.createdAt) },
                {
                  head: "Customer",
                  className: "break",
                  cell: (o) => (
                    <>
                      {o.customer}
                      {o.contact ? <div className="muted small">{o.contact}</div> : null}
                    </>
                  ),
                },
                { head: "Items", cell: (o) => o.items },
                { head: "Total", num: true, cell: (o) => o.total },
                {
                  head: "Status",
                  cell: (o) => (
                    <span className={`badge ${ORDER_TONE[o.status] ?? ""}`} data-testid="order-row-status">
                      {statusLabel(o.status, o.deliveryMethod)}
                    </span>
                  ),
                },
                {
                  head: "Payment",
                  cell: (o) => (
                    <>
                      <span className={`badge ${PAYMENT_TONE[o.paymentStatus] ?? ""}`}>
                        {paymentStatusLabel(o.paymentStatus)}
                      </span>
                      <div className="muted small">{o.paymentMethod}</div>
                    </>
                  ),
                },
              ]}
            />
          </div>
        </Form>
      )}

      <Pagination
        page={page}
        pages={pages}
        more={capped}
        path="/admin/orders"
        query={query}
        prevHref={prev ? href({ before: prev }) : null}
        nextHref={next ? href({ after: next }) : null}
      />
    </div>
  );
}

function describeFilter(f: { q: string; status: string | null; from: string | null; to: string | null }) {
  const parts: string[] = [];
  if (f.q) parts.push(`"${f.q}"`);
  if (f.status) parts.push(`status ${statusLabel(f.status)}`);
  if (f.from && f.to) parts.push(`${f.from} to ${f.to}`);
  else if (f.from) parts.push(`from ${f.from}`);
  else if (f.to) parts.push(`until ${f.to}`);
  return parts.join(", ");
}
