import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from "react";
import { CsrfInput } from "~/components/csrf";
import { StorefrontErrorBoundary, sfMeta, shopPath } from "~/components/storefront-blocks";
import { OrderTotals } from "~/components/order-totals";
import { storefrontFieldErrors } from "~/components/storefront-fields";
import { formAction } from "~/platform/accounts/form-action.server";
import { ApiError } from "~/platform/core/http.server";
import { checkoutHooks } from "~/platform/orders/checkout-hooks.server";
import type { Business } from "../../db/schema";
import type { PlatformContext } from "~/platform/core/context";
import {
  cartCookies,
  cartLines,
  readCart,
  checkout,
  checkoutSchema,
  orderPath,
  httpUrl,
  loadBusinessBySlug,
} from "~/storefront.server";
import {
  CheckoutFieldsError,
  checkoutRefusal,
  deliveryMethodOf,
  newCheckoutKey,
  shopperQuote,
  type CheckoutAnswer,
  type CheckoutField as Field,
  type CheckoutValues as Values,
  type QuoteView,
} from "./__checkout-quote.server";
import type { loader as quoteLoader } from "./s.$businessSlug.checkout.quote";

export const meta: MetaFunction = ({ matches }) => sfMeta(matches, "Checkout");

type Method = { id: string; name: string; description: string; icon: string };

const BUILT_IN: Method[] = [
  { id: "CASH", name: "Cash on delivery/pickup", description: "Pay when you get your order.", icon: "" },
  { id: "CARD", name: "Card on delivery/pickup", description: "Pay by card when you get your order.", icon: "" },
];

/** CASH, CARD and the methods installed apps offer (checkout.payment_methods). */
async function paymentMethods(context: PlatformContext, business: Business): Promise<Method[]> {
  let offered: Awaited<ReturnType<ReturnType<typeof checkoutHooks>["paymentMethods"]>> = [];
  try {
    offered = await checkoutHooks(context.db, context.env).paymentMethods(business);
  } catch (e) {
    console.error("[storefront] payment methods hook failed", e);
  }
  const methods = [...BUILT_IN];
  for (const m of Array.isArray(offered) ? offered : []) {
    if (!m || typeof m.id !== "string" || typeof m.name !== "string" || methods.some((x) => x.id === m.id)) continue;
    methods.push({
      id: m.id.slice(0, 200),
      name: m.name.slice(0, 100),
      description: typeof m.description === "string" ? m.description.slice(0, 300) : "",
      icon: httpUrl(m.icon),
    });
  }
  return methods;
}

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const business = await loadBusinessBySlug(context.db, params.businessSlug);
  const cart = await cartLines(context.db, business, await readCart(request, context.env, business.id));
  // an empty cart goes back to the cart; one whose products sold out stays here and says which (action)
  if (cart.lines.length === 0 && cart.unavailable.length === 0) throw redirect(shopPath(business.slug, "/cart"));
  // the total before "Place order": delivery (the default) until the shopper chooses otherwise
  const [methods, quote] = await Promise.all([
    paymentMethods(context, business),
    shopperQuote(context, business, cart, "DELIVERY"),
  ]);
  return json(
    { slug: business.slug, cart, methods, quote, checkoutKey: newCheckoutKey() },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

const FIELD_OF: Record<string, Field> = {
  "customer.name": "name",
  "customer.phone": "phone",
  "customer.email": "email",
  deliveryMethod: "deliveryMethod",
  address: "address",
  notes: "notes",
  paymentMethod: "paymentMethod",
};

const MESSAGES: Record<Field, string> = {
  name: "Enter your name.",
  phone: "Enter a phone number we can call about your order.",
  email: "Enter a valid e-mail address, or leave it empty.",
  deliveryMethod: "Choose delivery or pickup.",
  address: "Enter the delivery address, or choose pickup.",
  notes: "Notes can be up to 1000 characters.",
  paymentMethod: "Choose a payment method.",
};

/** What the shopper typed, cut to each field's size: given back with every refusal. */
function valuesOf(form: FormData): Values {
  const text = (name: Field, max: number) => String(form.get(name) ?? "").slice(0, max);
  return {
    name: text("name", 200),
    phone: text("phone", 100),
    email: text("email", 300),
    deliveryMethod: text("deliveryMethod", 20),
    address: text("address", 1000),
    notes: text("notes", 2000),
    paymentMethod: text("paymentMethod", 200),
  };
}

export async function action({ params, request, context }: ActionFunctionArgs) {
  const business = await loadBusinessBySlug(context.db, params.businessSlug);
  const cart = await cartLines(context.db, business, await readCart(request, context.env, business.id));
  const refused = {
    error: (e: ApiError, form: FormData) => checkoutRefusal(context, business, cart, e, valuesOf(form)),
  };
  return formAction(request, context, refused, async (form) => {
    if (cart.lines.length === 0 && cart.unavailable.length === 0) return redirect(shopPath(business.slug, "/cart"));
    const values = valuesOf(form);
    if (cart.unavailable.length) {
      // sold out (or withdrawn) while the shopper was checking out: say which, never a silent trip back to the cart
      const [names, many] = [cart.unavailable.join(", "), cart.unavailable.length > 1];
      throw new ApiError(
        409,
        `${names} ${many ? "are" : "is"} no longer available (sold out while you were checking out). Remove ${many ? "them" : "it"} from your cart to order the rest.`,
      );
    }
    // "Update total" (the page without JavaScript): the total for the chosen method, nothing placed
    if (form.get("intent") === "quote") {
      const quote = await shopperQuote(
        context,
        business,
        cart,
        deliveryMethodOf(values.deliveryMethod),
        values.address,
      );
      return json<CheckoutAnswer>({ error: null, fieldErrors: {}, values, quote, checkoutKey: newCheckoutKey() });
    }
    const delivery = values.deliveryMethod === "DELIVERY";
    const input = {
      customer: { name: values.name, phone: values.phone, email: values.email.trim() || undefined },
      items: cart.lines.map((l) => ({ productId: l.productId, quantity: l.quantity })),
      deliveryMethod: values.deliveryMethod,
      paymentMethod: values.paymentMethod,
      address: delivery ? values.address.trim() || undefined : undefined,
      notes: values.notes.trim() || undefined,
    };

    // the shopper's mistakes, field by field, before the pipeline runs
    const parsed = checkoutSchema.safeParse(input);
    if (!parsed.success) {
      const fieldErrors: Partial<Record<Field, string>> = {};
      const other: string[] = [];
      for (const issue of parsed.error.issues) {
        const field = FIELD_OF[issue.path.join(".")];
        if (field) fieldErrors[field] = MESSAGES[field];
        else other.push(issue.message);
      }
      throw new CheckoutFieldsError(fieldErrors, other);
    }

    // the total the shopper saw; without one (the page showed a refusal, or the field was lost) no
    // total can match (-1): the pipeline's own refusals come first, then the total is shown to confirm
    const quoted = String(form.get("quotedAmount") ?? "");
    const expectedAmount = /^\d{1,12}$/.test(quoted) ? Number(quoted) : -1;
    const key = form.get("checkoutKey");
    const result = await checkout(context.db, business, input, {
      hooks: checkoutHooks(context.db, context.env),
      actor: "customer",
      idempotencyKey: typeof key === "string" && /^[A-Za-z0-9_-]{16,100}$/.test(key) ? key : null,
      // a hook that answers differently now than for the quote: nothing is taken, the new total is shown (decision 020)
      expectedAmount,
    });
    // payment links and codes are on the order row; the confirmation page reads them from there
    return redirect(orderPath(context.env, business.slug, result.order.id), {
      headers: await cartCookies(request, context.env, business.id, []),
    });
  });
}

/** The order's total as the pipeline computes it: subtotal, delivery fee, discount, total; or why it cannot be placed. */
function Totals({
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

const DELIVERY_CHOICES = [
  { value: "DELIVERY", title: "Delivery", note: "We bring the order to your address." },
  { value: "PICKUP", title: "Pickup", note: "Collect it from us when it is ready." },
] as const;

const optional = (label: string) => (
  <>
    {label} <span className="sf-muted">(optional)</span>
  </>
);

export default function CheckoutPage() {
  const { slug, cart, methods, checkoutKey, quote: loaded } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
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

  // the delivery method on screen, and the total for it: the loader's, then the latest of the
  // action's ("Update total", a refused order) and the fetcher's (a change of method or address)
  const [method, setMethod] = useState<"DELIVERY" | "PICKUP">(
    values.deliveryMethod === "PICKUP" ? "PICKUP" : "DELIVERY",
  );
  const [shown, setShown] = useState<QuoteView | null>(data?.quote ?? loaded);
  const fetcher = useFetcher<typeof quoteLoader>();
  useEffect(() => {
    if (data?.quote) setShown(data.quote);
  }, [data]);
  useEffect(() => {
    if (fetcher.data) setShown(fetcher.data);
  }, [fetcher.data]);
  // with JavaScript the total follows the choices by itself; without it, "Update total" asks for it
  const [hydrated, setHydrated] = useState(false);
  const [address, setAddress] = useState(values.address ?? "");
  const [quotedAddress, setQuotedAddress] = useState(values.address ?? "");
  const requote = (deliveryMethod: "DELIVERY" | "PICKUP", addr: string) => {
    const query = new URLSearchParams({ deliveryMethod });
    if (deliveryMethod === "DELIVERY" && addr.trim()) query.set("address", addr.trim());
    setQuotedAddress(addr);
    fetcher.load(`${shopPath(slug, "/checkout/quote")}?${query}`);
  };
  // the radios and the address are left to the browser (uncontrolled), so that what a shopper chose
  // before the page was hydrated (a slow phone) stays; once hydrated, the total catches up with it
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    setHydrated(true);
    const form = formRef.current;
    if (!form) return;
    const chosen =
      form.querySelector<HTMLInputElement>('input[name="deliveryMethod"]:checked')?.value === "PICKUP"
        ? "PICKUP"
        : "DELIVERY";
    const typed = (form.elements.namedItem("address") as HTMLTextAreaElement | null)?.value ?? "";
    setAddress(typed);
    if (chosen !== method || (chosen === "DELIVERY" && typed.trim() !== quotedAddress.trim())) {
      setMethod(chosen);
      requote(chosen, typed);
    }
    // once, at hydration
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const updating = fetcher.state !== "idle";
  const total = shown?.ok ? shown.total : null;

  // "Place order" pressed while the total is being refreshed (typing an address and clicking at once:
  // leaving the field asks for its total on the way to the button). The click is kept, never
  // swallowed: the page says it waits, and places the order when the total comes back, if it is
  // still the total the shopper saw; a different one is shown for the shopper to confirm.
  const submit = useSubmit();
  const [queued, setQueued] = useState<{ amount: number | null } | null>(null);
  const [changedTotal, setChangedTotal] = useState<string | null>(null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    setChangedTotal(null);
    if (submitter?.value === "quote" || !updating) return;
    event.preventDefault();
    setQueued({ amount: shown?.ok ? shown.amount : null });
  };
  useEffect(() => {
    if (!queued || updating) return;
    setQueued(null);
    // the total that just came back (`shown` catches up with it one render later)
    const latest = fetcher.data ?? shown;
    const form = formRef.current;
    if (!form || !latest?.ok) return; // the refusal that came back is on screen
    if (queued.amount !== latest.amount) return setChangedTotal(latest.total);
    const placed = new FormData(form);
    placed.set("intent", "place");
    placed.set("quotedAmount", String(latest.amount));
    submit(placed, { method: "post" });
  }, [queued, updating, fetcher.data, shown, submit]);
  const waiting = queued !== null;

  return (
    <div className="sf-checkout">
      <h1>Checkout</h1>
      {data?.error ? (
        <p className="sf-alert sf-alert-error" role="alert">
          {data.error}
        </p>
      ) : null}
      <div className="sf-checkout-layout">
        <Form method="post" className="sf-form sf-checkout-form" ref={formRef} onSubmit={onSubmit}>
          <CsrfInput />
          <input type="hidden" name="checkoutKey" value={data?.checkoutKey ?? checkoutKey} />
          <input type="hidden" name="quotedAmount" value={shown?.ok ? String(shown.amount) : ""} />

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
                    defaultChecked={method === c.value}
                    onChange={() => {
                      setMethod(c.value);
                      requote(c.value, address);
                    }}
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
            <div className="sf-field sf-address-field" hidden={method === "PICKUP"}>
              <label htmlFor="co-address">Delivery address</label>
              <textarea
                id="co-address"
                name="address"
                rows={2}
                maxLength={500}
                autoComplete="street-address"
                defaultValue={values.address}
                onChange={(e) => setAddress(e.target.value)}
                onBlur={() => {
                  // the delivery fee may depend on the address (checkout.shipping_rates gets it as `locality`)
                  if (method === "DELIVERY" && address.trim() !== quotedAddress.trim()) requote("DELIVERY", address);
                }}
                {...invalid("address")}
                aria-describedby={errors.address ? "co-address-error co-address-hint" : "co-address-hint"}
              />
              <p id="co-address-hint" className="sf-hint">
                Where we bring your order.
              </p>
              {fieldError("address")}
            </div>
            {hydrated ? null : (
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

          {shown?.ok ? (
            // right above the button (on a phone the order summary comes after it): the total and what makes it
            <div className="sf-pay-total" data-testid="pay-total" aria-live="polite">
              <p>
                <span>Total to pay</span> <strong>{shown.total}</strong>
              </p>
              <p className="sf-muted sf-small">
                {shown.subtotal} + {shown.deliveryMethod === "DELIVERY" ? "delivery" : "pickup"} {shown.deliveryFee}
                {shown.discount ? ` − discount ${shown.discount}` : ""}
              </p>
            </div>
          ) : null}
          {changedTotal ? (
            <p className="sf-alert sf-alert-error" role="alert" data-testid="total-changed">
              The total for this address is {changedTotal}. Check it, then place your order.
            </p>
          ) : null}
          <button
            type="submit"
            name="intent"
            value="place"
            className="sf-button sf-button-primary sf-button-block sf-button-large"
            // not disabled while the total refreshes: a click then waits for it (onSubmit above)
            disabled={busy || waiting}
            aria-busy={waiting || placing}
          >
            {placing
              ? "Placing your order…"
              : waiting
                ? "Updating the total, then placing your order…"
                : total
                  ? `Place order · ${total}`
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
          <Totals quote={shown} subtotalLabel={cart.subtotalLabel} updating={updating} />
          <p className="sf-center">
            <Link to={shopPath(slug, "/cart")}>Edit cart</Link>
          </p>
        </aside>
      </div>
    </div>
  );
}

export const ErrorBoundary = StorefrontErrorBoundary;
