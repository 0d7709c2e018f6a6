/**
 * The Orders page's list (issue 41 split of routes/admin.orders._index.tsx): the table of a page of
 * orders with a checkbox per row, and the bar that moves the selected ones to a status.
 */
import { Form, Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { paymentStatusLabel } from "~/platform/orders/labels";
import { CsrfInput } from "~/components/csrf";
import { SubmitButton } from "~/components/submit-button";
import { ORDER_TONE, statusLabel } from "~/components/status-badge";
import { DataTable } from "~/components/page-parts";
import { useShopFormat } from "~/components/shop-format";

const PAYMENT_TONE: Record<string, string> = {
  COMPLETED: "ok",
  PENDING: "warn",
  EXPIRED: "danger",
  FAILED: "danger",
  NONE: "",
};

/** A row as the page's loader gives it. */
export type OrderRow = {
  id: string;
  number: string;
  createdAt: string;
  customer: string;
  contact: string | null;
  items: number;
  total: string;
  status: string;
  deliveryMethod: string;
  paymentStatus: string;
  paymentMethod: string;
};

export function OrdersTable({
  orders,
  statuses,
  total,
  capped,
  result,
}: {
  orders: OrderRow[];
  statuses: string[];
  total: number;
  capped: boolean;
  /** the last action's answer: a finished bulk move clears the selection */
  result: unknown;
}) {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // a finished bulk move clears the selection; a new page of the list does too
  useEffect(() => setSelected(new Set()), [result]);
  const ids = orders.map((o) => o.id).join(",");
  useEffect(() => setSelected((s) => new Set([...s].filter((id) => ids.split(",").includes(id)))), [ids]);
  const allSelected = orders.length > 0 && orders.every((o) => selected.has(o.id));
  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const { dates } = useShopFormat();

  return (
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
        <SubmitButton className="button primary" busyLabel="Moving orders…" disabled={hydrated && selected.size === 0}>
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
  );
}
