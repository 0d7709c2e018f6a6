import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { orNotFound, requireMerchant } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { formatMoney, getOrderDetail } from "~/platform/catalog/admin-queries.server";
import { ORDER_MOVES, moveOrderStatus, parseOrderStatus } from "~/platform/orders/status.server";
import { CsrfInput } from "~/components/csrf";
import { SubmitButton } from "~/components/submit-button";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Order #${data?.order.number ?? ""} · Admin` },
];

const fmtDate = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { business } = await requireMerchant(request, context);
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
  const { business } = await requireMerchant(request, context);
  const orderId = params.orderId ?? "";
  return formAction(request, context, { notFound: "Order not found" }, async (form) => {
    if (form.get("intent") !== "move") return json({ error: "Unknown action" }, 400);
    const to = parseOrderStatus(form.get("status"));
    await moveOrderStatus(context.db, business.id, orderId, to, "merchant");
    return redirect(`/admin/orders/${orderId}?saved=${to}`);
  });
}

const TONE: Record<string, string> = {
  PENDING: "warn",
  CONFIRMED: "info",
  PREPARING: "info",
  READY: "info",
  IN_DELIVERY: "info",
  DELIVERED: "ok",
  CANCELLED: "danger",
};
const label = (s: string) => s.replace(/_/g, " ").toLowerCase();

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
        <p className="small">
          <Link to="/admin/orders">← Orders</Link>
        </p>
        <div className="section-title">
          <h1>Order #{order.number}</h1>
          <span className={`badge large ${TONE[order.status] ?? ""}`} data-testid="order-status">
            {order.status}
          </span>
        </div>
        <p className="muted small">Placed {fmtDate(order.createdAt)}</p>
      </header>
      {data?.error ? (
        <p className="alert error" role="alert">
          {data.error}
        </p>
      ) : null}
      {!data?.error && saved && saved === order.status ? (
        <p className="alert success" role="status">
          The order is now {order.status}.
        </p>
      ) : null}

      <section className="card stack" aria-labelledby="status-head">
        <h2 id="status-head">Status</h2>
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
      </section>

      <div className="grid-2">
        <section className="card stack" aria-labelledby="customer-head">
          <h2 id="customer-head">Customer</h2>
          <dl className="kv">
            <dt>Name</dt>
            <dd>
              {order.customer.name}
              {order.isGuest ? <span className="muted small"> (guest)</span> : null}
            </dd>
            <dt>Phone</dt>
            <dd>
              {order.customer.phone ? (
                <a href={`tel:${order.customer.phone.replace(/[^0-9+]/g, "")}`}>{order.customer.phone}</a>
              ) : (
                "—"
              )}
            </dd>
            <dt>Email</dt>
            <dd>
              {order.customer.email ? <a href={`mailto:${order.customer.email}`}>{order.customer.email}</a> : "—"}
            </dd>
          </dl>
        </section>
        <section className="card stack" aria-labelledby="delivery-head">
          <h2 id="delivery-head">Delivery</h2>
          <dl className="kv">
            <dt>Method</dt>
            <dd>{order.deliveryMethod === "DELIVERY" ? "Delivery" : "Pickup"}</dd>
            <dt>Address</dt>
            <dd className="prewrap">
              {order.address || (order.deliveryMethod === "PICKUP" ? "Picked up at the shop" : "—")}
            </dd>
            <dt>Notes</dt>
            <dd className="prewrap">{order.notes || <span className="muted">None</span>}</dd>
          </dl>
        </section>
      </div>

      <section className="card stack" aria-labelledby="items-head">
        <h2 id="items-head">Items</h2>
        {items.length === 0 ? (
          <p className="muted">This order has no items.</p>
        ) : (
          <table className="table keep">
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col" className="num">
                  Price
                </th>
                <th scope="col" className="num">
                  Qty
                </th>
                <th scope="col" className="num">
                  Line total
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((i) => (
                <tr key={i.id}>
                  <td className="break">{i.name}</td>
                  <td className="num">{i.price}</td>
                  <td className="num">{i.quantity}</td>
                  <td className="num">{i.lineTotal}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={3}>
                  Subtotal
                </th>
                <td className="num">{order.subtotal}</td>
              </tr>
              {order.discount ? (
                <tr>
                  <th scope="row" colSpan={3}>
                    Discount
                  </th>
                  <td className="num">{order.discount}</td>
                </tr>
              ) : null}
              <tr>
                <th scope="row" colSpan={3}>
                  Delivery fee
                </th>
                <td className="num">{order.deliveryFee}</td>
              </tr>
              <tr className="total-row">
                <th scope="row" colSpan={3}>
                  Total
                </th>
                <td className="num" data-testid="order-total">
                  {order.total}
                </td>
              </tr>
            </tfoot>
          </table>
        )}
      </section>

      <div className="grid-2">
        <section className="card stack" aria-labelledby="payment-head">
          <h2 id="payment-head">Payment</h2>
          <dl className="kv">
            <dt>Method</dt>
            <dd>{order.paymentMethod}</dd>
            <dt>Status</dt>
            <dd>{order.paymentStatus === "NONE" ? "Not paid online" : label(order.paymentStatus)}</dd>
          </dl>
        </section>
        <section className="card stack" aria-labelledby="history-head">
          <h2 id="history-head">Status history</h2>
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
                    by {h.actor} · {fmtDate(h.at)}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
    </div>
  );
}
