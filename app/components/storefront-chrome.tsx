/**
 * The storefront's header (the shop's name, its catalogue, published pages and cart) and footer (address
 * and contact), shared by the storefront's layout and the site builder's live preview, so that the
 * preview shows the shop exactly as shoppers see it.
 */
import { Link, NavLink } from "@remix-run/react";
import { useContext } from "react";
import { CatalogueName, LinkDiscovery, shopPath } from "./storefront-blocks";

type ChromeBusiness = {
  name: string;
  slug: string;
  address?: string | null;
  phone?: string | null;
  email?: string | null;
};

export function StorefrontHeader({
  business,
  pages,
  cartCount,
}: {
  business: ChromeBusiness;
  pages: { slug: string; title: string }[];
  cartCount: number;
}) {
  const slug = business.slug;
  const discover = useContext(LinkDiscovery);
  const catalogue = useContext(CatalogueName);
  return (
    <header className="sf-header">
      <div className="sf-container sf-header-inner">
        <Link to={shopPath(slug)} className="sf-brand" discover={discover}>
          {business.name}
        </Link>
        <nav aria-label="Shop" className="sf-nav">
          <ul>
            <li>
              <NavLink to={shopPath(slug, "/products")} discover={discover}>
                {catalogue}
              </NavLink>
            </li>
            {pages.map((p) => (
              <li key={p.slug}>
                <NavLink to={shopPath(slug, `/pages/${encodeURIComponent(p.slug)}`)} discover={discover}>
                  {p.title}
                </NavLink>
              </li>
            ))}
            <li>
              <NavLink
                to={shopPath(slug, "/cart")}
                className="sf-cart-link"
                data-testid="cart-link"
                discover={discover}
              >
                Cart <span className="sf-cart-count">({cartCount})</span>
              </NavLink>
            </li>
          </ul>
        </nav>
      </div>
    </header>
  );
}

export function StorefrontFooter({ business }: { business: ChromeBusiness }) {
  return (
    <footer className="sf-footer">
      <div className="sf-container sf-footer-inner">
        <div>
          <p className="sf-footer-name">{business.name}</p>
          {business.address ? <p>{business.address}</p> : null}
        </div>
        <div className="sf-footer-contact">
          {business.phone ? (
            <p>
              Phone: <a href={`tel:${business.phone.replace(/[^\d+]/g, "")}`}>{business.phone}</a>
            </p>
          ) : null}
          {business.email && /^[^\s@<>"]+@[^\s@<>"]+$/.test(business.email) ? (
            <p>
              Email: <a href={`mailto:${business.email}`}>{business.email}</a>
            </p>
          ) : null}
        </div>
      </div>
    </footer>
  );
}
