/**
 * The checkout page (s.$businessSlug.checkout.tsx): the shopper's details, delivery or pickup with
 * the address, the payment method, notes, and the total to pay; beside them the order summary.
 * Its state (the total kept in step with the choices, a click that waits for it) is
 * use-checkout-total.tsx; its totals checkout-totals.tsx.
 */
import { Form, Link, useNavigation } from "@remix-run/react";
import type { InputHTMLAttributes, ReactNode } from "react";
import { CsrfInput } from "~/components/csrf";
import { shopPath } from "~/components/storefront-blocks";
import { storefrontFieldErrors } from "~/components/storefront-fields";
import type {
  CheckoutAnswer,
  CheckoutField as Field,
  CheckoutValues as Values,
  QuoteView,
} from "~/routes/__checkout-quote.server";
import { PayTotal, Totals } from "./checkout-totals";
import { useCheckoutTotal } from "./use-checkout-total";

/** A way to pay: CASH, CARD, or one an installed app offers (checkout.payment_methods). */
export type PaymentMethodView = { id: string; name: string; description: string; icon: string };

export type CheckoutPageProps = {
  slug: string;
  /** the shopper's cart as the summary shows it */
  cart: {
    lines: { productId: string; quantity: number; name: string; lineTotalLabel: string }[];
    subtotalLabel: string;
  };
  methods: PaymentMethodView[];
  checkoutKey: string;
  /** the loader's total */
  quote: QuoteView | null;
  /** the action's answer, when it showed the page again (a refusal, "Update total") */
  data: Partial<CheckoutAnswer> | undefined;
};

const DELIVERY_CHOICES = [
  { value: "DELIVERY", title: "Delivery", note: "We bring the order to your address." },
  { value: "PICKUP", title: "Pickup", note: "Collect it from us when it is ready." },
] as const;

const optional = (label: string) => (
  <>
    {label} <span className="sf-muted">(optional)</span>
  </>
);

export function CheckoutPage({ slug, cart, methods, checkoutKey, quote: loaded, data }: CheckoutPageProps) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const placing = navigation.state === "submitting" && navigation.formData?.get("intent") !== "quote";
  const values: Partial<Values> = data?.values ?? {};
  const errors: Partial<Record<Field, string>> = data?.fieldErrors ?? {};
  const { invalid, fieldError } = storefrontFieldErrors("co", errors);
  /** One of the shopper's details: its label, the input with what was typed, and its error. */
  const detail = (f: "name" | "phone" | "email", label: ReactNode, input: InputHTMLAttributes<HTMLInputElement>) => (
    <div className="sf-field">
      <label htmlFor={`co-${f}`}>{label}</label>
      <input id={`co-${f}`} name={f} {...input} defaultValue={values[f]} {...invalid(f)} />
      {fieldError(f)}
    </div>
  );
  const payment = methods.some((m) => m.id === values.paymentMethod) ? values.paymentMethod : "CASH";

  const co = useCheckoutTotal({ slug, loaded, answered: data, values });

  return (
    <div className="sf-checkout">
      <h1>Checkout</h1>
      {data?.error ? (
        <p className="sf-alert sf-alert-error" role="alert">
          {data.error}
        </p>
      ) : null}
      <div className="sf-checkout-layout">
        <Form method="post" className="sf-form sf-checkout-form" ref={co.formRef} onSubmit={co.onSubmit}>
          <CsrfInput />
          <input type="hidden" name="checkoutKey" value={data?.checkoutKey ?? checkoutKey} />
          <input type="hidden" name="quotedAmount" value={co.shown?.ok ? String(co.shown.amount) : ""} />

          <fieldset className="sf-fieldset">
            <legend>Your details</legend>
            {detail("name", "Name", { autoComplete: "name", required: true, maxLength: 100 })}
            {detail("phone", "Phone", {
              type: "tel",
              autoComplete: "tel",
              required: true,
              minLength: 3,
              maxLength: 40,
            })}
            {detail("email", optional("Email"), { type: "email", autoComplete: "email", maxLength: 254 })}
          </fieldset>

          <fieldset
            className="sf-fieldset sf-delivery"
            {...(errors.deliveryMethod ? { "aria-describedby": "co-deliveryMethod-error" } : {})}
          >
            <legend>Delivery or pickup</legend>
            <div className="sf-choices">
              {DELIVERY_CHOICES.map((c) => (
                <label key={c.value} className="sf-choice">
                  <input
                    type="radio"
                    name="deliveryMethod"
                    value={c.value}
                    defaultChecked={co.method === c.value}
                    onChange={() => co.chooseMethod(c.value)}
                    required
                  />
                  <span>
                    <strong>{c.title}</strong>
                    <span className="sf-muted">{c.note}</span>
                  </span>
                </label>
              ))}
            </div>
            {fieldError("deliveryMethod")}
            {/* asked only for delivery: hidden for pickup (with JavaScript by state, without it by CSS :has()); the server ignores it for pickup */}
            <div className="sf-field sf-address-field" hidden={co.method === "PICKUP"}>
              <label htmlFor="co-address">Delivery address</label>
              <textarea
                id="co-address"
                name="address"
                rows={2}
                maxLength={500}
                autoComplete="street-address"
                defaultValue={values.address}
                onChange={(e) => co.setAddress(e.target.value)}
                // the delivery fee may depend on the address
                onBlur={co.leaveAddress}
                {...invalid("address")}
                aria-describedby={errors.address ? "co-address-error co-address-hint" : "co-address-hint"}
              />
              <p id="co-address-hint" className="sf-hint">
                Where we bring your order.
              </p>
              {fieldError("address")}
            </div>
            {co.hydrated ? null : (
              <p className="sf-update-total">
                <button type="submit" name="intent" value="quote" formNoValidate className="sf-button">
                  Update total
                </button>
                <span className="sf-hint">after changing delivery or pickup, or the address</span>
              </p>
            )}
          </fieldset>

          <fieldset className="sf-fieldset">
            <legend>Payment</legend>
            <div className="sf-choices">
              {methods.map((m) => (
                <label key={m.id} className="sf-choice">
                  <input type="radio" name="paymentMethod" value={m.id} defaultChecked={m.id === payment} required />
                  {m.icon ? <img src={m.icon} alt="" width={28} height={28} className="sf-method-icon" /> : null}
                  <span>
                    <strong>{m.name}</strong>
                    {m.description ? <span className="sf-muted">{m.description}</span> : null}
                  </span>
                </label>
              ))}
            </div>
            {fieldError("paymentMethod")}
          </fieldset>

          <div className="sf-field">
            <label htmlFor="co-notes">{optional("Notes")}</label>
            <textarea
              id="co-notes"
              name="notes"
              rows={3}
              maxLength={1000}
              defaultValue={values.notes}
              {...invalid("notes")}
            />
            {fieldError("notes")}
          </div>

          <PayTotal shown={co.shown} />
          {co.changedTotal ? (
            <p className="sf-alert sf-alert-error" role="alert" data-testid="total-changed">
              The total for this address is {co.changedTotal}. Check it, then place your order.
            </p>
          ) : null}
          <button
            type="submit"
            name="intent"
            value="place"
            className="sf-button sf-button-primary sf-button-block sf-button-large"
            // not disabled while the total refreshes: a click then waits for it (onSubmit above)
            disabled={busy || co.waiting}
            aria-busy={co.waiting || placing}
          >
            {placing
              ? "Placing your order…"
              : co.waiting
                ? "Updating the total, then placing your order…"
                : co.total
                  ? `Place order · ${co.total}`
                  : "Place order"}
          </button>
        </Form>

        <aside className="sf-summary" aria-labelledby="co-summary-title">
          <h2 id="co-summary-title">Your order</h2>
          <ul className="sf-summary-lines">
            {cart.lines.map((l) => (
              <li key={l.productId}>
                <span>
                  {l.quantity} × {l.name}
                </span>
                <span>{l.lineTotalLabel}</span>
              </li>
            ))}
          </ul>
          <Totals quote={co.shown} subtotalLabel={cart.subtotalLabel} updating={co.updating} />
          <p className="sf-center">
            <Link to={shopPath(slug, "/cart")}>Edit cart</Link>
          </p>
        </aside>
      </div>
    </div>
  );
}
