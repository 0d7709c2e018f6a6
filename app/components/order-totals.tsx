/**
 * The priced totals of an order: subtotal, delivery fee (or pickup), any discount and the total, in
 * the order the checkout shows them. The checkout's live quote and the shopper's order page both
 * show them, so that what the shopper was quoted reads the same as what they were charged.
 */
export type PricedTotals = {
  deliveryMethod: string;
  subtotal: string;
  deliveryFee: string;
  discount: string | null;
  discountReason: string | null;
  total: string;
};

/** `testIdPrefix` names the figures for tests: `<prefix>-fee`, `<prefix>-discount`, `<prefix>-total`. */
export function OrderTotals({ totals, testIdPrefix }: { totals: PricedTotals; testIdPrefix: string }) {
  return (
    <dl className="sf-totals">
      <div>
        <dt>Subtotal</dt>
        <dd>{totals.subtotal}</dd>
      </div>
      <div>
        <dt>{totals.deliveryMethod === "DELIVERY" ? "Delivery fee" : "Pickup"}</dt>
        <dd data-testid={`${testIdPrefix}-fee`}>{totals.deliveryFee}</dd>
      </div>
      {totals.discount ? (
        <div className="sf-discount">
          <dt>Discount{totals.discountReason ? <span className="sf-muted"> ({totals.discountReason})</span> : null}</dt>
          <dd data-testid={`${testIdPrefix}-discount`}>−{totals.discount}</dd>
        </div>
      ) : null}
      <div className="sf-grand-total">
        <dt>Total</dt>
        <dd data-testid={`${testIdPrefix}-total`}>{totals.total}</dd>
      </div>
    </dl>
  );
}
