import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { CsrfInput } from "~/components/csrf";
import {
  ProductImage,
  StorefrontErrorBoundary,
  VisuallyHidden,
  sfMeta,
  shopPath,
} from "~/components/storefront-blocks";
import { safeRedirect } from "~/platform/accounts/session.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { ApiError } from "~/platform/core/http.server";
import {
  addToCart,
  cartCookies,
  cartProduct,
  parseQuantity,
  readCart,
  removeFromCart,
  setQuantity,
  isSellable,
  loadBusinessBySlug,
  shopOf,
  shopperCart,
} from "~/storefront.server";

export const meta: MetaFunction = ({ matches }) => sfMeta(matches, "Your cart");

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  // the shop the layout reads for the same request (one statement for both)
  const { business } = await shopOf(context, params.businessSlug);
  const cart = await shopperCart(context, request, business);
  return json({ slug: business.slug, cart });
}

/**
 * Where to go after adding: a path inside this storefront ("/s/<slug>", "/s/<slug>/…", with a
 * query), else the cart. The path is normalised first, so "/s/<slug>/../../admin" is refused too.
 */
function storefrontRedirect(raw: FormDataEntryValue | null, slug: string): string | null {
  const base = shopPath(slug);
  const to = safeRedirect(raw, "");
  if (!to) return null;
  let url: URL;
  try {
    url = new URL(to, "http://storefront.invalid");
  } catch {
    return null;
  }
  if (url.origin !== "http://storefront.invalid") return null;
  const path = url.pathname;
  if (path !== base && !path.startsWith(base + "/")) return null;
  url.searchParams.set("added", "1");
  return path + url.search;
}

function productIdOf(form: FormData): string {
  const id = form.get("productId");
  if (typeof id !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new ApiError(400, "Choose a product to add.");
  return id;
}

export async function action({ params, request, context }: ActionFunctionArgs) {
  // a refused change (sold out, too few left) is the cart's message
  return formAction(request, context, async (form) => {
    const business = await loadBusinessBySlug(context.db, params.businessSlug);
    const cartPath = shopPath(business.slug, "/cart");
    const items = await readCart(request, context.env, business.id);
    const intent = form.get("intent");
    if (intent === "add") {
      const productId = productIdOf(form);
      const quantity = parseQuantity(form.get("quantity") ?? "1", 1);
      const product = await cartProduct(context.db, business.id, productId);
      if (!product || !isSellable(product))
        throw new ApiError(
          400,
          product ? `Sorry, ${product.name} is not available right now.` : "Sorry, this product is not available.",
        );
      const next = addToCart(items, productId, quantity);
      const wanted = next.find((l) => l.productId === productId)!.quantity;
      if (product.stock !== null && wanted > product.stock)
        throw new ApiError(
          400,
          `Sorry, only ${product.stock} of ${product.name} ${product.stock === 1 ? "is" : "are"} left.`,
        );
      const headers = await cartCookies(request, context.env, business.id, next);
      return redirect(storefrontRedirect(form.get("redirectTo"), business.slug) ?? cartPath, { headers });
    }
    if (intent === "update" || intent === "remove") {
      const productId = productIdOf(form);
      let next = removeFromCart(items, productId);
      if (intent === "update") {
        const quantity = parseQuantity(form.get("quantity"), 0);
        if (quantity > 0) {
          const product = await cartProduct(context.db, business.id, productId);
          if (product && product.stock !== null && quantity > product.stock)
            throw new ApiError(
              400,
              `Sorry, only ${product.stock} of ${product.name} ${product.stock === 1 ? "is" : "are"} left.`,
            );
        }
        next = setQuantity(items, productId, quantity);
      }
      return redirect(cartPath, { headers: await cartCookies(request, context.env, business.id, next) });
    }
    throw new ApiError(400, "Unknown cart action.");
  });
}

export default function CartPage() {
  const { slug, cart } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <div className="sf-cart">
      <h1>Your cart</h1>
      {data?.error ? (
        <p className="sf-alert sf-alert-error" role="alert">
          {data.error}
        </p>
      ) : null}
      {cart.lines.length === 0 ? (
        <div className="sf-empty">
          <p>Your cart is empty.</p>
          <p>
            <Link to={shopPath(slug, "/products")} className="sf-button sf-button-primary">
              Browse the menu
            </Link>
          </p>
        </div>
      ) : (
        <div className="sf-cart-layout">
          <ul className="sf-lines" aria-label="Items in your cart">
            {cart.lines.map((line) => (
              <li key={line.productId} className="sf-line">
                <ProductImage src={line.imageUrl} alt={line.name} className="sf-line-media" />
                <div className="sf-line-info">
                  <h2 className="sf-line-name">
                    <Link to={shopPath(slug, `/products/${encodeURIComponent(line.slug)}`)}>{line.name}</Link>
                  </h2>
                  <p className="sf-muted">{line.unitPriceLabel} each</p>
                  <div className="sf-line-actions">
                    <Form method="post" action={shopPath(slug, "/cart")} className="sf-line-qty" preventScrollReset>
                      <CsrfInput />
                      <input type="hidden" name="intent" value="update" />
                      <input type="hidden" name="productId" value={line.productId} />
                      <label htmlFor={`qty-${line.productId}`}>
                        Quantity<VisuallyHidden> of {line.name}</VisuallyHidden>
                      </label>
                      <input
                        key={`${line.productId}-${line.quantity}`}
                        id={`qty-${line.productId}`}
                        type="number"
                        name="quantity"
                        min={0}
                        max={line.stock === null ? 999 : Math.min(999, line.stock)}
                        step={1}
                        inputMode="numeric"
                        required
                        defaultValue={line.quantity}
                        className="sf-qty"
                      />
                      <button type="submit" className="sf-button sf-button-small">
                        Update<VisuallyHidden> {line.name}</VisuallyHidden>
                      </button>
                    </Form>
                    <Form method="post" action={shopPath(slug, "/cart")} preventScrollReset>
                      <CsrfInput />
                      <input type="hidden" name="intent" value="remove" />
                      <input type="hidden" name="productId" value={line.productId} />
                      <button type="submit" className="sf-button sf-button-small sf-button-quiet">
                        Remove<VisuallyHidden> {line.name}</VisuallyHidden>
                      </button>
                    </Form>
                  </div>
                </div>
                <p className="sf-line-total">
                  <VisuallyHidden>Line total: </VisuallyHidden>
                  {line.lineTotalLabel}
                </p>
              </li>
            ))}
          </ul>
          <aside className="sf-summary" aria-labelledby="cart-summary-title">
            <h2 id="cart-summary-title">Summary</h2>
            <dl className="sf-totals">
              <div>
                <dt>
                  Subtotal ({cart.count} {cart.count === 1 ? "item" : "items"})
                </dt>
                <dd data-testid="cart-subtotal">{cart.subtotalLabel}</dd>
              </div>
            </dl>
            <p className="sf-muted sf-small">
              Checkout shows the delivery fee, any discounts and the final total before you place the order.
            </p>
            <Link to={shopPath(slug, "/checkout")} className="sf-button sf-button-primary sf-button-block">
              Checkout
            </Link>
            <p className="sf-center">
              <Link to={shopPath(slug, "/products")}>Continue shopping</Link>
            </p>
          </aside>
        </div>
      )}
    </div>
  );
}

export const ErrorBoundary = StorefrontErrorBoundary;
