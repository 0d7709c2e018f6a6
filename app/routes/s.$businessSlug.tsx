import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, Outlet, isRouteErrorResponse, useLoaderData, useRouteError, useSearchParams } from "@remix-run/react";
import sf from "~/storefront.css";
import { CatalogueName, shopPath } from "~/components/storefront-blocks";
import { originOf } from "~/components/block-frame";
import { FloatingWidgets } from "~/components/embeds";
import { StorefrontFooter, StorefrontHeader } from "~/components/storefront-chrome";
import { useEffect } from "react";
import { httpUrl, publicBusiness, shopOf, shopperCart } from "~/storefront.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: sf }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.business.name ?? "Shop" },
  ...(data ? [{ name: "description", content: data.business.description }] : []),
];

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  // the shop is read once for every loader of the request (storefront/site.server.ts shopOf)
  const { business, nav, blocks, embeds } = await shopOf(context, params.businessSlug);
  // shared with the page's own loader (the cart, the checkout): one read of the cart's products
  const cartCount = (await shopperCart(context, request, business)).count;
  const active = embeds.filter((e) => e.enabled);
  return json({
    business: publicBusiness(business),
    pages: nav.filter((p) => p.slug !== "home"),
    cartCount,
    embeds: active.map((e) => ({
      appSlug: e.appSlug,
      embedType: e.embedType,
      name: e.name,
      kind: e.kind,
      position: e.position,
      scriptUrl: e.scriptUrl,
      renderUrl: e.renderUrl,
      iconUrl: e.kind === "FLOATING_WIDGET" ? httpUrl(e.appIconUrl) || undefined : undefined,
      settings: e.settings,
      placement: e.placement,
    })),
    // read by entry.server for the Content-Security-Policy: exactly these origins
    csp: {
      scriptOrigins: active
        .flatMap((e) => (e.kind === "GLOBAL_SCRIPT" && e.scriptUrl ? [originOf(e.scriptUrl)] : []))
        .filter((o): o is string => !!o),
      frameOrigins: [
        ...active.flatMap((e) => (e.kind === "FLOATING_WIDGET" && e.renderUrl ? [originOf(e.renderUrl)] : [])),
        ...blocks.map((b) => originOf(b.renderUrl)),
      ].filter((o): o is string => !!o),
    },
  });
}

/**
 * The page is hydrated: app scripts may now add their own elements to it. React 18 re-renders a
 * document whose body holds nodes it did not render, which removes what a script added before
 * hydration, so GLOBAL_SCRIPT embeds wait for this signal (`storefront:ready` on window, and
 * `data-storefront-ready` on <html> for scripts that load later; docs/developers/extensions.md).
 */
function useReadySignal() {
  useEffect(() => {
    document.documentElement.dataset.storefrontReady = "true";
    window.dispatchEvent(new Event("storefront:ready"));
  }, []);
}

export default function StorefrontLayout() {
  const { business, pages, cartCount, embeds } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const slug = business.slug;
  useReadySignal();
  return (
    // with floating widgets the page ends with room for their launchers (storefront.css .sf-has-widgets)
    <CatalogueName.Provider value={business.catalogue}>
      <div
        className={embeds.some((e) => e.kind === "FLOATING_WIDGET" && e.renderUrl) ? "sf sf-has-widgets" : "sf"}
        lang={business.locale}
      >
        <a href="#sf-main" className="sf-skip">
          Skip to content
        </a>
        <StorefrontHeader business={business} pages={pages} cartCount={cartCount} />
        {params.get("added") ? (
          <div className="sf-container">
            <p className="sf-notice" role="status">
              Added to your cart. <Link to={shopPath(slug, "/cart")}>View cart ({cartCount})</Link>
            </p>
          </div>
        ) : null}
        <main id="sf-main" className="sf-container sf-main" tabIndex={-1}>
          <Outlet />
        </main>
        <StorefrontFooter business={business} />
        <FloatingWidgets />
      </div>
    </CatalogueName.Provider>
  );
}

/** The shop itself is missing (or failed): a plain page in the storefront's style. */
export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <div className="sf">
      <main className="sf-container sf-main">
        <section className="sf-error">
          <h1>{status === 404 ? "Shop not found" : "Something went wrong"}</h1>
          <p>
            {status === 404
              ? "We could not find this shop. Check the address and try again."
              : "Something went wrong on our side. Please try again."}
          </p>
          <p>
            <Link to="/" className="sf-button">
              Go to the home page
            </Link>
          </p>
        </section>
      </main>
    </div>
  );
}
