import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { StorefrontErrorBoundary, sfMeta, shopPath } from "~/components/storefront-blocks";
import { OrderTotals } from "~/components/order-totals";
import {
  verifyOrderToken,
  dateFormatter,
  httpUrl,
  loadBusinessBySlug,
  moneyFormatter,
  orderForShopper,
} from "~/storefront.server";

export const meta: MetaFunction<typeof loader> = ({ matches, data }) => [
  ...sfMeta(matches, data ? `Order #${data.order.orderNumber}` : "Order not found"),
  { name: "robots", content: "noindex" },
];

// the page is a capability link: never cached, never shared
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

const STATUS_TEXT: Record<string, string> = {
  PENDING: "Received – waiting for the shop to confirm",
  CONFIRMED: "Confirmed",
  PREPARING: "Being prepared",
  READY: "Ready",
  IN_DELIVERY: "On its way",
  DELIVERED: "Delivered",
  CANCELLED: "Cancelled",
};

const PAYMENT_TEXT: Record<string, string> = {
  CASH: "Cash on delivery/pickup",
  CARD: "Card on delivery/pickup",
};

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const business = await loadBusinessBySlug(context.db, params.businessSlug);
  const token = new URL(request.url).searchParams.get("t");
  const notFound = new Response("We could not find this order.", { status: 404 });
  if (!params.orderId || !verifyOrderToken(context.env, params.orderId, token)) throw notFound;
  const found = await orderForShopper(context.db, business.id, params.orderId);
  if (!found) throw notFound;
  const { order, items } = found;
  const money = moneyFormatter(business, order.currency);
  const when = dateFormatter(business, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  });
  const paymentUrl = httpUrl(order.paymentUrl);
  return json(
    {
      slug: business.slug,
      order: {
        orderNumber: order.orderNumber,
        status: order.status,
        statusText: STATUS_TEXT[order.status] ?? order.status,
        // in the business's time zone (its settings), with the zone's name: the shop's clock, not the server's or the shopper's
        placedAt: when(order.createdAt),
        placedIso: order.createdAt.toISOString(),
        items: items.map((i) => ({
          id: i.id,
          name: i.name,
          quantity: i.quantity,
          priceLabel: money(i.price),
          totalLabel: money(i.price * i.quantity),
        })),
        subtotal: money(order.subtotal),
        discount: order.discount > 0 ? money(order.discount) : null,
        discountReason: order.discountReason ?? null,
        deliveryFee: money(order.deliveryFee),
        total: money(order.amount),
        deliveryMethod: order.deliveryMethod,
        address: order.deliveryMethod === "DELIVERY" ? order.address : null,
        pickupAddress: business.address,
        notes: order.notes,
        customerName: order.customerName,
        paymentMethod: PAYMENT_TEXT[order.paymentMethod] ?? "Online payment",
        paymentStatus: order.paymentStatus,
        // an app's payment: a link to pay (http(s) only) and/or a code, while the payment is open
        payment: {
          url: order.paymentStatus === "PENDING" && paymentUrl ? paymentUrl : null,
          qrCode: order.paymentStatus === "PENDING" && order.paymentQrCode ? order.paymentQrCode.slice(0, 4000) : null,
          expiresAt: order.paymentExpiresAt ? when(order.paymentExpiresAt) : null,
          expiresIso: order.paymentExpiresAt ? order.paymentExpiresAt.toISOString() : null,
        },
      },
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export default function OrderConfirmation() {
  const { slug, order } = useLoaderData<typeof loader>();
  const cancelled = order.status === "CANCELLED";
  return (
    <div className="sf-confirmation">
      <header className="sf-confirmation-head">
        <p className="sf-confirmation-mark" aria-hidden="true">
          {cancelled ? "✕" : "✓"}
        </p>
        <h1>{cancelled ? `Order #${order.orderNumber}` : `Thank you! Order #${order.orderNumber}`}</h1>
        <p className="sf-lead">
          {cancelled
            ? "This order was cancelled."
            : `We have your order, ${order.customerName}. Keep this page to check on it.`}
        </p>
        <p>
          <span className="sf-muted">Status:</span>{" "}
          <span className={`sf-status sf-status-${order.status.toLowerCase()}`}>{order.statusText}</span>
        </p>
      </header>

      {order.payment.url || order.payment.qrCode ? (
        <section className="sf-pay" aria-labelledby="pay-title">
          <h2 id="pay-title">Complete your payment</h2>
          {order.payment.url ? (
            <p>
              <a
                href={order.payment.url}
                className="sf-button sf-button-primary sf-button-large"
                rel="noopener noreferrer"
              >
                Pay now
              </a>
            </p>
          ) : null}
          {order.payment.qrCode ? (
            <figure className="sf-pay-code">
              <figcaption>Payment code</figcaption>
              <pre>
                <code>{order.payment.qrCode}</code>
              </pre>
            </figure>
          ) : null}
          {order.payment.expiresAt ? (
            <p className="sf-muted">
              Pay before <time dateTime={order.payment.expiresIso ?? undefined}>{order.payment.expiresAt}</time>.
            </p>
          ) : null}
        </section>
      ) : null}
      {order.paymentStatus === "COMPLETED" ? (
        <p className="sf-alert sf-alert-success">Your payment was received. Thank you!</p>
      ) : null}
      {order.paymentStatus === "EXPIRED" ? (
        <p className="sf-alert sf-alert-error">The time to pay for this order has run out. Please contact the shop.</p>
      ) : null}
      {order.paymentStatus === "FAILED" ? (
        <p className="sf-alert sf-alert-error">The payment for this order failed.</p>
      ) : null}

      <div className="sf-confirmation-grid">
        <section className="sf-panel" aria-labelledby="items-title">
          <h2 id="items-title">Items</h2>
          <ul className="sf-summary-lines">
            {order.items.map((i) => (
              <li key={i.id}>
                <span>
                  {i.quantity} × {i.name} <span className="sf-muted">({i.priceLabel} each)</span>
                </span>
                <span>{i.totalLabel}</span>
              </li>
            ))}
          </ul>
          {/* in the order the checkout showed them */}
          <OrderTotals totals={order} testIdPrefix="order" />
        </section>
        <section className="sf-panel" aria-labelledby="details-title">
          <h2 id="details-title">Details</h2>
          <dl className="sf-details">
            <div>
              <dt>Placed</dt>
              <dd>
                <time dateTime={order.placedIso} data-testid="order-placed">
                  {order.placedAt}
                </time>
              </dd>
            </div>
            <div>
              <dt>{order.deliveryMethod === "DELIVERY" ? "Delivery to" : "Pickup"}</dt>
              <dd>
                {order.deliveryMethod === "DELIVERY"
                  ? order.address
                  : order.pickupAddress
                    ? `Collect your order from ${order.pickupAddress}.`
                    : "Collect your order from the shop."}
              </dd>
            </div>
            <div>
              <dt>Payment</dt>
              <dd>{order.paymentMethod}</dd>
            </div>
            {order.notes ? (
              <div>
                <dt>Notes</dt>
                <dd>{order.notes}</dd>
              </div>
            ) : null}
          </dl>
        </section>
      </div>
      <p className="sf-center">
        <Link to={shopPath(slug)} className="sf-button">
          Back to the shop
        </Link>
      </p>
    </div>
  );
}

export const ErrorBoundary = StorefrontErrorBoundary;
