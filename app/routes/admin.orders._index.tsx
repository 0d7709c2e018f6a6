import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/platform/accounts/session.server";
import { listOrders } from "~/platform/catalog/queries.server";
import { ADMIN_PAGE_SIZE, formatMoney, orderStatusCounts, pageCount, readPage } from "~/platform/catalog/admin-queries.server";
import { toMinor } from "~/platform/catalog/serialize.server";
import { ORDER_STATUSES, type OrderStatus } from "../../db/schema";
import { EmptyState } from "~/components/area-layout";
import { Pagination, pageHref } from "~/components/pagination";

export const meta: MetaFunction = () => [{ title: "Orders · Admin" }];

const fmtDate = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { business } = await requireUser(request, context, "MERCHANT");
  if (!business) throw new Response("This account has no business.", { status: 403 });
  const url = new URL(request.url);
  const rawStatus = url.searchParams.get("status");
  const status = rawStatus && (ORDER_STATUSES as readonly string[]).includes(rawStatus) ? (rawStatus as OrderStatus) : null;
  const page = readPage(url);
  const [{ data, total }, counts] = await Promise.all([
    listOrders(context.db, business.id, { limit: ADMIN_PAGE_SIZE, offset: (page - 1) * ADMIN_PAGE_SIZE }, { status: status ?? undefined }),
    orderStatusCounts(context.db, business.id),
  ]);
  return json({
    statuses: [...ORDER_STATUSES],
    status,
    unknownStatus: rawStatus !== null && rawStatus !== "" && status === null ? rawStatus : null,
    page,
    pages: pageCount(total),
    total,
    counts,
    orders: data.map((o) => ({
      id: o.id,
      number: o.orderNumber,
      createdAt: o.createdAt,
      customer: o.customer.name,
      items: o.items.reduce((n, i) => n + i.quantity, 0),
      total: formatMoney(toMinor(o.amount), o.currency, business.locale),
      status: o.status,
      paymentStatus: o.paymentStatus,
      paymentMethod: o.paymentMethod,
    })),
  });
}

const ORDER_TONE: Record<string, string> = {
  PENDING: "warn",
  CONFIRMED: "info",
  PREPARING: "info",
  READY: "info",
  IN_DELIVERY: "info",
  DELIVERED: "ok",
  CANCELLED: "danger",
};
const PAYMENT_TONE: Record<string, string> = { COMPLETED: "ok", PENDING: "warn", EXPIRED: "danger", FAILED: "danger", NONE: "" };
const statusLabel = (s: string) => s.replace(/_/g, " ").toLowerCase();

const href = (status: string | null) => pageHref("/admin/orders", { status });

export default function AdminOrders() {
  const { statuses, status, unknownStatus, page, pages, total, counts, orders } = useLoaderData<typeof loader>();
  return (
    <div className="stack-lg">
      <header className="page-head">
        <h1>Orders</h1>
        <p className="lead">Every order placed in your storefront, newest first.</p>
      </header>
      {unknownStatus ? <p className="alert warning" role="alert">There is no order status "{unknownStatus}": showing all orders.</p> : null}

      <nav className="pills" aria-label="Filter by status">
        <Link to={href(null)} className={status ? "pill" : "pill active"} aria-current={status ? undefined : "page"}>
          All <span className="pill-count">{counts.all}</span>
        </Link>
        {statuses.map((s) => (
          <Link key={s} to={href(s)} className={status === s ? "pill active" : "pill"} aria-current={status === s ? "page" : undefined}>
            {statusLabel(s)} <span className="pill-count">{counts.byStatus[s]}</span>
          </Link>
        ))}
      </nav>

      {orders.length === 0 ? (
        status ? (
          <EmptyState title={`No ${statusLabel(status)} orders`}>
            <p>{total > 0 ? <Link to={href(status)}>Go to the first page</Link> : <Link to="/admin/orders">See all orders</Link>}</p>
          </EmptyState>
        ) : total > 0 ? (
          <EmptyState title="No orders on this page">
            <p><Link to="/admin/orders">Go to the first page</Link></p>
          </EmptyState>
        ) : (
          <EmptyState title="No orders yet">
            <p>Orders placed in your storefront appear here.</p>
          </EmptyState>
        )
      ) : (
        <>
          <p className="muted small" role="status">
            {total} {status ? statusLabel(status) : ""} {total === 1 ? "order" : "orders"}
          </p>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Date (UTC)</th>
                <th scope="col">Customer</th>
                <th scope="col">Items</th>
                <th scope="col">Total</th>
                <th scope="col">Status</th>
                <th scope="col">Payment</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((o) => (
                <tr key={o.id} data-testid="order-row">
                  <td><Link to={`/admin/orders/${o.id}`} aria-label={`Order #${o.number}`}><strong>#{o.number}</strong></Link></td>
                  <td data-label="Date (UTC)" className="nowrap">{fmtDate(o.createdAt)}</td>
                  <td data-label="Customer" className="break">{o.customer}</td>
                  <td data-label="Items">{o.items}</td>
                  <td data-label="Total" className="num">{o.total}</td>
                  <td data-label="Status"><span className={`badge ${ORDER_TONE[o.status] ?? ""}`}>{statusLabel(o.status)}</span></td>
                  <td data-label="Payment">
                    <span className={`badge ${PAYMENT_TONE[o.paymentStatus] ?? ""}`}>{o.paymentStatus === "NONE" ? "not paid online" : o.paymentStatus.toLowerCase()}</span>
                    <div className="muted small">{o.paymentMethod.toLowerCase()}</div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}

      <Pagination page={page} pages={pages} path="/admin/orders" query={{ status }} />
    </div>
  );
}
