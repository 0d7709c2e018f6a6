/**
 * The checkout page's totals: the order summary's (subtotal, delivery fee, discount, total; or why
 * the order cannot be placed) and the one right above "Place order".
 */
import { OrderTotals } from "~/components/order-totals";
import type { QuoteView } from "~/routes/__checkout-quote.server";

/** The order's total as the pipeline computes it: subtotal, delivery fee, discount, total; or why it cannot be placed. */
export function Totals({
  quote,
  subtotalLabel,
  updating,
}: {
  quote: QuoteView | null;
  subtotalLabel: string;
  updating: boolean;
}) {
  if (!quote) return null;
  return (
    <div className="sf-quote" aria-live="polite" aria-busy={updating}>
      {quote.ok ? (
        <OrderTotals totals={quote} testIdPrefix="checkout" />
      ) : (
        <>
          <dl className="sf-totals">
            <div>
              <dt>Subtotal</dt>
              <dd>{subtotalLabel}</dd>
            </div>
          </dl>
          <p className="sf-alert sf-alert-error" data-testid="checkout-refusal">
            This order cannot be placed as it is: {quote.message}
          </p>
        </>
      )}
      {updating ? <p className="sf-muted sf-small sf-quote-busy">Updating the total…</p> : null}
    </div>
  );
}

/** Right above the button (on a phone the order summary comes after it): the total and what makes it. */
export function PayTotal({ shown }: { shown: QuoteView | null }) {
  if (!shown?.ok) return null;
  return (
    <div className="sf-pay-total" data-testid="pay-total" aria-live="polite">
      <p>
        <span>Total to pay</span> <strong>{shown.total}</strong>
      </p>
      <p className="sf-muted sf-small">
        {shown.subtotal} + {shown.deliveryMethod === "DELIVERY" ? "delivery" : "pickup"} {shown.deliveryFee}
        {shown.discount ? ` − discount ${shown.discount}` : ""}
      </p>
    </div>
  );
}
