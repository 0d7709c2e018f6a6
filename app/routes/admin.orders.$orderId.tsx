import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { orNotFound, requireMerchant } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { formatMoney, getOrderDetail } from "~/platform/catalog/admin-queries.server";
import { ORDER_MOVES, moveOrderStatus, parseOrderStatus } from "~/platform/orders/status.server";
import { CsrfInput } from "~/components/csrf";
import { BackLink, Card, DataTable, ErrorAlert, Facts, SuccessNotice, utcDateTime } from "~/components/page-parts";
import { SubmitButton } from "~/components/submit-button";
import { ORDER_TONE, statusLabel } from "~/components/status-badge";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Order #${data?.order.number ?? ""} · Admin` },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { business } = await requireMerchant(request, context, "orders");
  const {
    order: o,
    items,
    history,
  } = await getOrderDetail(context.db, business.id, params.orderId ?? "").catch(orNotFound("Order not found"));
  const money = (minor: number) => formatMoney(minor, o.currency, business.locale);
  return json({
    order: {
      id: o.id,
      number: o.orderNumber,
      status: o.status,
      createdAt: o.createdAt.toISOString(),
      customer: { name: o.customerName, phone: o.customerPhone, email: o.customerEmail },
      isGuest: o.isGuest,
      deliveryMethod: o.deliveryMethod,
      address: o.address,
      notes: o.notes,
      paymentMethod: o.paymentMethod,
      paymentStatus: o.paymentStatus,
      subtotal: money(o.subtotal),
      discount: o.discount > 0 ? money(-o.discount) : null,
      deliveryFee: money(o.deliveryFee),
      total: money(o.amount),
    },
    items: items.map((i) => ({
      id: i.id,
      productId: i.productId,
      name: i.name,
      price: money(i.price),
      quantity: i.quantity,
      lineTotal: money(i.price * i.quantity),
    })),
    history: history.map((h) => ({
      id: h.id,
      from: h.fromStatus,
      to: h.toStatus,
      actor: h.actor,
      at: h.createdAt.toISOString(),
    })),
    moves: ORDER_MOVES[o.status],
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { business } = await requireMerchant(request, context, "orders");
  const orderId = params.orderId ?? "";
  return formAction(request, context, { notFound: "Order not found" }, async (form) => {
    if (form.get("intent") !== "move") return json({ error: "Unknown action" }, 400);
    const to = parseOrderStatus(form.get("status"));
    await moveOrderStatus(context.db, business.id, orderId, to, "merchant");
    return redirect(`/admin/orders/${orderId}?saved=${to}`);
  });
}

/** A line under the order's items: what it is, over the first three columns, and the amount. */
function SumRow({ label, value, total }: { label: string; value: string; total?: boolean }) {
  return (
    <tr className={total ? "total-row" : undefined}>
      <th scope="row" colSpan={3}>
        {label}
      </th>
      <td className="num" data-testid={total ? "order-total" : undefined}>
        {value}
      </td>
    </tr>
  );
}

export default function AdminOrder() {
  const { order, items, history, moves } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const [params] = useSearchParams();
  const saved = params.get("saved");
  const forward = moves.filter((m) => m !== "CANCELLED");
  const canCancel = moves.includes("CANCELLED");
  return (
    <div className="stack-lg">
      <header className="page-head">
        <BackLink to="/admin/orders" label="Orders" className="small" />
        <div className="section-title">
          <h1>Order #{order.number}</h1>
          <span className={`badge large ${ORDER_TONE[order.status] ?? ""}`} data-testid="order-status">
            {order.status}
          </span>
        </div>
        <p className="muted small">Placed {utcDateTime(order.createdAt)}</p>
      </header>
      <ErrorAlert error={data?.error} />
      <SuccessNotice show={!data?.error && saved && saved === order.status}>
        The order is now {order.status}.
      </SuccessNotice>

      <Card title="Status" id="status-head">
        {moves.length === 0 ? (
          <p className="muted">This order is closed.</p>
        ) : (
          <div className="order-moves">
            {forward.map((s) => (
              <Form method="post" key={s}>
                <CsrfInput />
                <input type="hidden" name="intent" value="move" />
                <input type="hidden" name="status" value={s} />
                <SubmitButton className="button primary" busyLabel={`Moving to ${s}…`}>
                  {`Move to ${s}`}
                </SubmitButton>
              </Form>
            ))}
            {canCancel ? (
              <details className="confirm">
                <summary>Cancel order…</summary>
                <p className="muted small">
                  The customer's order is cancelled and no longer counts as revenue. This cannot be undone.
                </p>
                <Form method="post">
                  <CsrfInput />
                  <input type="hidden" name="intent" value="move" />
                  <input type="hidden" name="status" value="CANCELLED" />
                  <SubmitButton className="button danger" busyLabel="Cancelling the order…">
                    {"Move to CANCELLED"}
                  </SubmitButton>
                </Form>
              </details>
            ) : null}
          </div>
        )}
      </Card>

      <div className="grid-2">
        <Card title="Customer" id="customer-head">
          <Facts
            facts={[
              [
                "Name",
                <>
                  {order.customer.name}
                  {order.isGuest ? <span className="muted small"> (guest)</span> : null}
                </>,
              ],
              [
                "Phone",
                order.customer.phone ? (
                  <a href={`tel:${order.customer.phone.replace(/[^0-9+]/g, "")}`}>{order.customer.phone}</a>
                ) : (
                  "—"
                ),
              ],
              [
                "Email",
                order.customer.email ? <a href={`mailto:${order.customer.email}`}>{order.customer.email}</a> : "—",
              ],
            ]}
          />
        </Card>
        <Card title="Delivery" id="delivery-head">
          <Facts
            facts={[
              ["Method", order.deliveryMethod === "DELIVERY" ? "Delivery" : "Pickup"],
              [
                "Address",
                order.address || (order.deliveryMethod === "PICKUP" ? "Picked up at the shop" : "—"),
                "prewrap",
              ],
              ["Notes", order.notes || <span className="muted">None</span>, "prewrap"],
            ]}
          />
        </Card>
      </div>

      <Card title="Items" id="items-head">
        {items.length === 0 ? (
          <p className="muted">This order has no items.</p>
        ) : (
          <DataTable
            className="table keep"
            rows={items}
            rowKey={(i) => i.id}
            columns={[
              { head: "Product", className: "break", cell: (i) => i.name },
              { head: "Price", num: true, cell: (i) => i.price },
              { head: "Qty", num: true, cell: (i) => i.quantity },
              { head: "Line total", num: true, cell: (i) => i.lineTotal },
            ]}
            foot={
              <>
                <SumRow label="Subtotal" value={order.subtotal} />
                {order.discount ? <SumRow label="Discount" value={order.discount} /> : null}
                <SumRow label="Delivery fee" value={order.deliveryFee} />
                <SumRow label="Total" value={order.total} total />
              </>
            }
          />
        )}
      </Card>

      <div className="grid-2">
        <Card title="Payment" id="payment-head">
          <Facts
            facts={[
              ["Method", order.paymentMethod],
              ["Status", order.paymentStatus === "NONE" ? "Not paid online" : statusLabel(order.paymentStatus)],
            ]}
          />
        </Card>
        <Card title="Status history" id="history-head">
          {history.length === 0 ? (
            <p className="muted">No status changes recorded.</p>
          ) : (
            <ol className="history" data-testid="status-history">
              {history.map((h) => (
                <li key={h.id} data-testid="history-row">
                  <span>
                    {h.from ? (
                      <>
                        {h.from} → {h.to}
                      </>
                    ) : (
                      <>Placed as {h.to}</>
                    )}
                  </span>
                  <span className="muted small">
                    {" "}
                    by {h.actor} · {utcDateTime(h.at)}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </Card>
      </div>
    </div>
  );
}
