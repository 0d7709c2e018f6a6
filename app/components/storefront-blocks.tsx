/**
 * The storefront's shared pieces: a page's blocks, product cards, the add-to-cart form, and the
 * error view of storefront pages. Everything is rendered as text (no HTML from merchants or apps);
 * money and dates arrive formatted by the loaders.
 */
import { Form, Link, isRouteErrorResponse, useLocation, useParams, useRouteError } from "@remix-run/react";
import type { MetaDescriptor } from "@remix-run/node";
import { createContext, useContext } from "react";
import type { ProductView } from "../../storefront/site.server";
import type { PublicBlock } from "../../storefront/blocks";
import { CsrfInput } from "./csrf";
import { BlockFrame } from "./block-frame";

export const LAYOUT_ROUTE_ID = "routes/s.$businessSlug";

/**
 * Whether the storefront's links and forms have Remix discover their routes as soon as they render
 * ("render", the default), or only when used ("none"): the site builder's live preview, where links
 * lead nowhere and the browser may refuse a framed page its storage, which discovery writes to.
 */
export const LinkDiscovery = createContext<"render" | "none">("render");

/** "<title> · <business name>" for a storefront route's meta. */
export function sfMeta(
  matches: { id: string; data: unknown }[],
  title?: string,
  description?: string,
): MetaDescriptor[] {
  const layout = matches.find((m) => m.id === LAYOUT_ROUTE_ID)?.data as
    { business?: { name?: string; description?: string } } | undefined;
  const shop = layout?.business?.name ?? "Shop";
  // every shopper page describes itself (Lighthouse's SEO audit): the page's own words, else the shop's (decision 061)
  const words = description?.trim() || layout?.business?.description;
  return [{ title: title ? `${title} · ${shop}` : shop }, ...(words ? [{ name: "description", content: words }] : [])];
}

/**
 * The catalogue's name in the shop's words ("Products", or "Menu" for a restaurant; decision 061),
 * given by the storefront's layout and the builder's preview from `publicBusiness`.
 */
export const CatalogueName = createContext("Products");
export const useCatalogueName = () => useContext(CatalogueName);

/** The same, for a route's meta function. */
export function catalogueNameOf(matches: { id: string; data: unknown }[]): string {
  const layout = matches.find((m) => m.id === LAYOUT_ROUTE_ID)?.data as
    { business?: { catalogue?: string } } | undefined;
  return layout?.business?.catalogue ?? "Products";
}

export const shopPath = (slug: string, rest = "") => `/s/${encodeURIComponent(slug)}${rest}`;

/** The current page (without one-off notices) as the place to come back to after adding to the cart. */
export function useReturnPath(): string {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  params.delete("added");
  params.delete("reviewed");
  const search = params.toString();
  return location.pathname + (search ? `?${search}` : "");
}

export function VisuallyHidden({ children }: { children: React.ReactNode }) {
  return <span className="sf-visually-hidden">{children}</span>;
}

/** A product photo; a warm placeholder (CSS) stands in when there is none or it fails to load. */
export function ProductImage({
  src,
  alt,
  className = "",
  eager = false,
}: {
  src: string;
  alt: string;
  className?: string;
  eager?: boolean;
}) {
  return (
    <div className={`sf-media ${className}`.trim()} data-initial={alt.trim().charAt(0).toUpperCase()}>
      {src ? (
        <img src={src} alt={alt} loading={eager ? "eager" : "lazy"} decoding="async" width={400} height={300} />
      ) : null}
    </div>
  );
}

/** POSTs intent=add to the cart; the cart sends the shopper back to redirectTo. */
export function AddToCartForm({
  product,
  slug,
  withQuantity = false,
  compact = false,
}: {
  product: Pick<ProductView, "id" | "name" | "maxQuantity">;
  slug: string;
  withQuantity?: boolean;
  compact?: boolean;
}) {
  const redirectTo = useReturnPath();
  const discover = useContext(LinkDiscovery);
  const qtyId = `qty-${product.id}`;
  return (
    <Form
      method="post"
      action={shopPath(slug, "/cart")}
      discover={discover}
      className={compact ? "sf-add sf-add-compact" : "sf-add"}
      preventScrollReset
    >
      <CsrfInput />
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="productId" value={product.id} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {withQuantity ? (
        <div className="sf-field sf-qty-field">
          <label htmlFor={qtyId}>Quantity</label>
          <input
            id={qtyId}
            type="number"
            name="quantity"
            defaultValue={1}
            min={1}
            max={product.maxQuantity}
            step={1}
            inputMode="numeric"
            required
            className="sf-qty"
          />
        </div>
      ) : (
        <input type="hidden" name="quantity" value="1" />
      )}
      {/* in a grid of cards, the name says which product ("Add to cart: Tiramisu") */}
      <button
        type="submit"
        className="sf-button sf-button-primary"
        aria-label={compact ? `Add to cart: ${product.name}` : undefined}
      >
        Add to cart
      </button>
    </Form>
  );
}

export function ProductCard({
  product,
  slug,
  headingLevel = 3,
}: {
  product: ProductView;
  slug: string;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const href = shopPath(slug, `/products/${encodeURIComponent(product.slug)}`);
  const discover = useContext(LinkDiscovery);
  return (
    <article className="sf-card">
      <Link to={href} tabIndex={-1} aria-hidden="true" className="sf-card-media-link" discover={discover}>
        <ProductImage src={product.imageUrl} alt={product.name} />
      </Link>
      <div className="sf-card-body">
        <Heading className="sf-card-title">
          <Link to={href} discover={discover}>
            {product.name}
          </Link>
        </Heading>
        {product.description ? <p className="sf-card-desc">{product.description}</p> : null}
        <div className="sf-card-foot">
          <span className="sf-price">{product.priceLabel}</span>
          {product.sellable ? (
            <AddToCartForm product={product} slug={slug} compact />
          ) : (
            <span className="sf-badge sf-badge-muted">
              {product.availability === "sold-out" ? "Sold out" : "Unavailable"}
            </span>
          )}
        </div>
        {product.sellable && product.lowStock !== null ? (
          <p className="sf-stock-note">Only {product.lowStock} left</p>
        ) : null}
      </div>
    </article>
  );
}

export function ProductGrid({ products, slug, label }: { products: ProductView[]; slug: string; label?: string }) {
  if (products.length === 0) return <p className="sf-muted">No products to show yet. Please check back soon.</p>;
  return (
    <ul className="sf-grid" aria-label={label}>
      {products.map((p) => (
        <li key={p.id}>
          <ProductCard product={p} slug={slug} />
        </li>
      ))}
    </ul>
  );
}

/** A page's blocks: heading → h2, text → p, image → img, product-grid → cards, app blocks → their iframes. */
export function StorefrontBlocks({
  blocks,
  products,
  slug,
  businessId = "",
  locale = "en-US",
}: {
  blocks: PublicBlock[];
  products: ProductView[];
  slug: string;
  businessId?: string;
  locale?: string;
}) {
  return (
    <div className="sf-blocks">
      {blocks.map((block) => (
        <StorefrontBlock
          key={block.id}
          block={block}
          products={products}
          slug={slug}
          businessId={businessId}
          locale={locale}
        />
      ))}
    </div>
  );
}

/**
 * One block as shoppers see it. The site builder's live preview renders the same element, with
 * `mode: "editor"` (and the app's session token) for app blocks.
 */
export function StorefrontBlock({
  block,
  products,
  slug,
  businessId = "",
  locale = "en-US",
  mode = "storefront",
  sessionToken,
}: {
  block: PublicBlock;
  products: ProductView[];
  slug: string;
  businessId?: string;
  locale?: string;
  mode?: "storefront" | "editor";
  sessionToken?: string | null;
}) {
  const discover = useContext(LinkDiscovery);
  const catalogue = useContext(CatalogueName);
  if (block.kind === "app")
    return (
      <div className="app-block" data-app-block={block.id} data-block-type={block.type}>
        <BlockFrame
          blockId={block.id}
          renderUrl={block.renderUrl}
          settings={block.settings}
          businessId={businessId}
          locale={locale}
          mode={mode}
          sessionToken={mode === "editor" ? sessionToken : null}
          title={block.name}
          className="sf-block-frame"
        />
      </div>
    );
  switch (block.type) {
    case "heading":
      return block.text ? <h2 className="sf-block-heading">{block.text}</h2> : null;
    case "text":
      return block.text ? <p className="sf-block-text">{block.text}</p> : null;
    case "image":
      return (
        <figure className="sf-block-image">
          <img src={block.url} alt={block.alt} loading="lazy" decoding="async" />
        </figure>
      );
    case "product-grid":
      return (
        <section className="sf-block-products" aria-label="Products">
          <ProductGrid products={products.slice(0, block.limit)} slug={slug} />
          {products.length > 0 ? (
            <p className="sf-more">
              <Link to={shopPath(slug, "/products")} className="sf-button" discover={discover}>
                {catalogue === "Menu" ? "See the full menu" : `See all ${catalogue.toLowerCase()}`}
              </Link>
            </p>
          ) : null}
        </section>
      );
    default:
      return null;
  }
}

/** "★★★★☆" for people who see it, "4 out of 5 stars" for screen readers. */
export function Stars({ rating }: { rating: number }) {
  const full = Math.round(Math.max(0, Math.min(5, rating)));
  return (
    <span className="sf-stars">
      <span aria-hidden="true">
        {"★".repeat(full)}
        {"☆".repeat(5 - full)}
      </span>
      <VisuallyHidden>{rating} out of 5 stars</VisuallyHidden>
    </span>
  );
}

/** The error view of a storefront page; the shop's header and footer stay around it. */
export function StorefrontErrorBoundary() {
  const error = useRouteError();
  const { businessSlug } = useParams();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = isRouteErrorResponse(error)
    ? typeof error.data === "string" && error.data && error.data.length < 300
      ? error.data
      : status === 404
        ? "We could not find this page."
        : "Something went wrong. Please try again."
    : "Something went wrong on our side. Please try again.";
  return (
    <section className="sf-error">
      <h1>{status === 404 ? "Page not found" : status === 403 ? "Not allowed" : "Something went wrong"}</h1>
      <p>{message}</p>
      {businessSlug ? (
        <p>
          <Link to={shopPath(businessSlug)} className="sf-button">
            Back to the shop
          </Link>
        </p>
      ) : null}
    </section>
  );
}
