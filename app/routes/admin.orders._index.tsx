import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
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
import { MIN_TEXT_SEARCH, isFiltered, orderFilterQuery } from "~/platform/catalog/order-filter";
import {
  bulkMoveOrders,
  MAX_BULK_MOVE,
  type BulkMoveResult,
  type BulkTarget,
} from "~/platform/orders/bulk-moves.server";
import { parseOrderStatus } from "~/platform/orders/status.server";
import { paymentMethodLabel } from "~/platform/orders/labels";
import { listOrderExports, requestOrderExport } from "~/platform/orders/exports.server";
import { ORDER_STATUSES } from "../../db/schema";
import { EmptyState } from "~/components/area-layout";
import { Pagination, pageHref } from "~/components/pagination";
import { EmptyList, ErrorAlert, PageHeader } from "~/components/page-parts";
import { BulkResults, ConfirmBulk, FINAL_TARGETS, type BulkConfirm } from "~/components/orders/bulk-move";
import { OrderFilters, StatusPills, describeFilter } from "~/components/orders/order-filters";
import { OrdersTable } from "~/components/orders/orders-table";
import { ExportButton, OrderExports } from "~/components/orders/exports";

export const meta: MetaFunction = () => [{ title: "Orders · Admin" }];

/**
 * The admin's orders list (route; its parts are in app/components/orders/): search, a date range,
 * sorts and status pills, pages by cursor (decision 068), bulk status moves, and CSV exports
 * prepared in the background (decision 081).
 */
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
  const [{ rows, total, capped, page, next, prev, invalidCursor }, counts, exports] = await Promise.all([
    searchOrders(context.db, business.id, filter, { page: readPage(url), cursors }),
    orderStatusCounts(context.db, business.id),
    listOrderExports(context.db, business.id),
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
    exports,
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

type BulkAnswer = {
  error: string | null;
  results: BulkMoveResult[] | null;
  to: BulkTarget | null;
  confirm: BulkConfirm | null;
};
const answer = (a: Partial<BulkAnswer>, status = 200) =>
  json<BulkAnswer>({ error: null, results: null, to: null, confirm: null, ...a }, status);

const refused = { error: (e: ApiError): BulkAnswer => ({ error: e.message, results: null, to: null, confirm: null }) };

/** The list's filter fields as an export's request carries them. */
const FILTER_FIELDS = ["q", "status", "from", "to", "sort"] as const;

export async function action({ request, context }: ActionFunctionArgs) {
  const { business } = await requireMerchant(request, context, "orders");
  return formAction(request, context, refused, async (form) => {
    if (form.get("intent") === "export") {
      // the list's filter, in the business's time zone; the page then shows the export's progress
      const params = new URLSearchParams();
      for (const name of FILTER_FIELDS) {
        const value = form.get(name);
        if (typeof value === "string" && value) params.set(name, value);
      }
      const timeZone = isValidTimeZone(business.timezone) ? business.timezone : "UTC";
      const started = await requestOrderExport(context.db, business.id, { params, timeZone });
      return redirect(`/admin/orders${started.query ? `?${started.query}` : ""}`, 303);
    }
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
    exports,
    orders,
  } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const query = orderFilterQuery(filter);
  const href = (change: Record<string, string | null>) => pageHref("/admin/orders", { ...query, ...change });

  return (
    <div className="stack-lg orders-page">
      <PageHeader title="Orders" className="page-head" action={<ExportButton filter={filter} filtered={filtered} />}>
        Every order placed in your storefront. Dates are in your business's time zone, {timeZone}.
      </PageHeader>
      {notices.map((n) => (
        <p key={n} className="alert warning" role="alert">
          {n}
        </p>
      ))}

      <OrderFilters filter={filter} filtered={filtered} shortSearch={shortSearch} />
      <StatusPills statuses={statuses} active={filter.status} counts={counts} href={href} />

      <ErrorAlert error={result?.error} />
      {result?.confirm ? <ConfirmBulk confirm={result.confirm} /> : null}
      {result?.results && result.to ? <BulkResults results={result.results} to={result.to} /> : null}
      <OrderExports exports={exports} />

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
        <OrdersTable orders={orders} statuses={statuses} total={total} capped={capped} result={result} />
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
