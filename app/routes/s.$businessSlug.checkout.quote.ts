/**
 * GET /s/<business>/checkout/quote?deliveryMethod=DELIVERY|PICKUP[&address=…]: the checkout page's
 * total for the shopper's cart (its fetcher calls this when the delivery method or the address
 * changes). Reads only: a GET, so the page's loaders are not run again; never cached.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { loadBusinessBySlug, shopperCart } from "~/storefront.server";
import { deliveryMethodOf, shopperQuote, type QuoteView } from "./__checkout-quote.server";

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const business = await loadBusinessBySlug(context.db, params.businessSlug);
  const url = new URL(request.url);
  const deliveryMethod = deliveryMethodOf(url.searchParams.get("deliveryMethod"));
  const cart = await shopperCart(context, request, business);
  const view: QuoteView = (await shopperQuote(
    context,
    business,
    cart,
    deliveryMethod,
    url.searchParams.get("address"),
  )) ?? { ok: false, deliveryMethod, message: "Your cart is empty." };
  return json(view, { headers: { "Cache-Control": "private, no-store" } });
}
