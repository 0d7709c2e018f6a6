import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { orNotFound, requireMerchant } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { formatMoney, getOrderDetail } from "~/platform/catalog/admin-queries.server";
import {
  fulfilOrder,
  fulfilPath,
  merchantMoves,
  moveOrderStatus,
  parseOrderStatus,
} from "~/platform/orders/status.server";
import {
  deliveryMethodLabel,
  fulfilLabel,
  orderStatusLabel,
  paymentMethodLabel,
  paymentStatusLabel,
} from "~/platform/orders/labels";
import { CsrfInput } from "~/components/csrf";
import { BackLink, Card, DataTable, ErrorAlert, Facts, SuccessNotice } from "~/components/page-parts";
import { SubmitButton } from "~/components/submit-button";
import { ORDER_TONE } from "~/components/status-badge";
import { useShopFormat } from "~/components/shop-format";

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
      paymentMethod: paymentMethodLabel(o.paymentMethod, o.paymentMethodName),
      paymentStatus: paymentStatusLabel(o.paymentStatus),
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
    moves: merchantMoves(o.status, o.deliveryMethod),
    // "Mark as picked up / delivered": the steps it makes, for the button's explanation
    fulfilSteps: fulfilPath(o.status, o.deliveryMethod),
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { business } = await requireMerchant(request, context, "orders");
  const orderId = params.orderId ?? "";
  return formAction(request, context, { notFound: "Order not found" }, async (form) => {
    const intent = form.get("intent");
    if (intent === "fulfil") {
      const order = await fulfilOrder(context.db, business.id, orderId, "merchant");
      return redirect(`/admin/orders/${orderId}?saved=${order.status}`);
    }
    if (intent !== "move") return json({ error: "Unknown action" }, 400);
    const to = parseOrderStatus(form.get("status"));
    await moveOrderStatus(context.db, business.id, orderId, to, "merchant", { merchant: true });
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
  const { order, items, history, moves, fulfilSteps } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const { dates } = useShopFormat();
  const label = (s: string) => orderStatusLabel(s, order.deliveryMethod);
  const [params] = useSearchParams();
  const saved = params.get("saved");
  // the single steps, when the merchant wants to say where the order is (fulfilling makes them all)
  const forward = moves.filter((m) => m !== "CANCELLED");
  const canCancel = moves.includes("CANCELLED");
  return (
    <div className="stack-lg">
      <header className="page-head">
        <BackLink to="/admin/orders" label="Orders" className="small" />
        <div className="section-title">
          <h1>Order #{order.number}</h1>
          <span className={`badge large ${ORDER_TONE[order.status] ?? ""}`} data-testid="order-status">
            {label(order.status)}
          </span>
        </div>
        <p className="muted small" data-testid="order-placed">
          Placed {dates.dateTime(order.createdAt, { zone: true })}
          {/* the zone's name where its short name does not say it ("GMT+9" is not Asia/Tokyo; "UTC" is UTC) */}
          {dates.zoneName(order.createdAt) !== dates.timeZone ? (
            <span className="nowrap"> ({dates.timeZone})</span>
          ) : null}
        </p>
      </header>
      <ErrorAlert error={data?.error} />
      <SuccessNotice show={!data?.error && saved && saved === order.status}>
        The order is now {label(order.status).toLowerCase()}.
      </SuccessNotice>

      <Card title="Status" id="status-head">
        {moves.length === 0 ? (
          <p className="muted">This order is closed.</p>
        ) : (
          <div className="order-moves">
            {fulfilSteps.length > 0 ? (
              <Form method="post">
                <CsrfInput />
                <input type="hidden" name="intent" value="fulfil" />
                <SubmitButton
                  className="button primary"
                  busyLabel={order.deliveryMethod === "PICKUP" ? "Marking as picked up…" : "Marking as delivered…"}
                  aria-describedby="fulfil-help"
                >
                  {fulfilLabel(order.deliveryMethod)}
                </SubmitButton>
                <p id="fulfil-help" className="muted small">
                  {fulfilSteps.length > 1
                    ? `One step for ${fulfilSteps.map((s) => label(s).toLowerCase()).join(", ")}.`
                    : `Moves it to ${label(fulfilSteps[0]).toLowerCase()}.`}
                </p>
              </Form>
            ) : null}
            {forward.map((s) => (
              <Form method="post" key={s}>
                <CsrfInput />
                <input type="hidden" name="intent" value="move" />
                <input type="hidden" name="status" value={s} />
                <SubmitButton className="button" busyLabel={`Moving to ${label(s).toLowerCase()}…`}>
                  {`Move to ${label(s).toLowerCase()}`}
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
                    Cancel this order
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
              ["Method", deliveryMethodLabel(order.deliveryMethod)],
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
              ["Status", order.paymentStatus],
            ]}
          />
        </Card>
        <Card
          title="Status history"
          id="history-head"
          aside={<span className="muted small">Times in {dates.timeZone}</span>}
        >
          {history.length === 0 ? (
            <p className="muted">No status changes recorded.</p>
          ) : (
            <ol className="history" data-testid="status-history">
              {history.map((h) => (
                <li key={h.id} data-testid="history-row">
                  <span>
                    {h.from ? (
                      <>
                        {label(h.from)} → {label(h.to)}
                      </>
                    ) : (
                      <>Placed as {label(h.to).toLowerCase()}</>
                    )}
                  </span>
                  <span className="muted small">
                    {" "}
                    by {h.actor} · <span data-testid="history-time">{dates.dateTime(h.at, { zone: true })}</span>
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
