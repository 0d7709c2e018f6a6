import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { CheckoutPage, type PaymentMethodView as Method } from "~/components/checkout/checkout-page";
import { StorefrontErrorBoundary, sfMeta, shopPath } from "~/components/storefront-blocks";
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
  shopOf,
  shopperCart,
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
} from "./__checkout-quote.server";

export const meta: MetaFunction = ({ matches }) => sfMeta(matches, "Checkout");

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
  // the shop the layout reads for the same request (one statement for both)
  const { business } = await shopOf(context, params.businessSlug);
  const cart = await shopperCart(context, request, business);
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

export default function CheckoutRoute() {
  const loaded = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return <CheckoutPage {...loaded} data={data} />;
}

export const ErrorBoundary = StorefrontErrorBoundary;
