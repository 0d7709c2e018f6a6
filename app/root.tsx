import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import {
  Form,
  Link,
  Links,
  Meta,
  NavLink,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useLoaderData,
  useLocation,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import styles from "./styles.css";
import {
  csrfTokenOf,
  getSession,
  hasStrayShopperToken,
  maskCsrfToken,
  getSignedInAccount,
  homeFor,
  sessionStorageFor,
  shopperCsrfToken,
} from "./platform/accounts/session.server";
import { CsrfInput } from "./components/csrf";
import { useNonce } from "./components/nonce";
import { EmbedScripts } from "./components/embeds";
import { isStorefrontPath } from "./platform/core/areas";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = ({ error }) => {
  // a page whose loader failed shows the root's error page: its title says what happened
  if (!error) return [{ title: "Storefront Apps" }];
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return [
    {
      title: `${status === 404 ? "Page not found" : status === 403 ? "Not allowed" : status === 400 ? "We could not accept that" : "Something went wrong"} · Storefront Apps`,
    },
  ];
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await getSession(request, context.env);
  // on the storefront's origin a token only for the shopper who holds one (given with the first cart):
  // a page view sets no cookie, so that shared caches may keep the page (decision 021); nor does a
  // not-found answer there of a path both origins serve (a missing /favicon.ico or image)
  const url = new URL(request.url);
  const storefront = isStorefrontPath(url.pathname) || url.host === new URL(context.env.storefrontUrl).host;
  // a storefront token without a cart (page views set one before decision 021, for 7 days) is taken
  // away, so that the visitor's next page is the shared one
  const stray = isStorefrontPath(url.pathname) && hasStrayShopperToken(request);
  const { token, created } = stray
    ? { token: "", created: false }
    : storefront
      ? { token: shopperCsrfToken(session), created: false }
      : csrfTokenOf(session);
  const account = await getSignedInAccount(request, context);
  const headers: HeadersInit = stray
    ? { "Set-Cookie": await sessionStorageFor(request, context.env).destroySession(session) }
    : created
      ? { "Set-Cookie": await sessionStorageFor(request, context.env).commitSession(session) }
      : {};
  return json(
    // masked afresh in every response: compressed pages must not reveal the token (BREACH, decision 020)
    {
      csrf: token ? maskCsrfToken(token) : "",
      origins: { platform: context.env.publicUrl, storefront: context.env.storefrontUrl },
      account: account
        ? { name: account.name, email: account.email, role: account.role, home: homeFor(account.role) }
        : null,
    },
    { headers },
  );
}

function Header() {
  const data = useRouteLoaderData<typeof loader>("root");
  const account = data?.account;
  return (
    <header className="topbar">
      <Link to="/" className="brand">
        <span className="brand-mark" aria-hidden>
          ◆
        </span>{" "}
        Storefront Apps
      </Link>
      <nav className="topnav" aria-label="Main">
        <NavLink to="/marketplace">Marketplace</NavLink>
        {account ? (
          <NavLink to={account.home}>
            {account.role === "DEVELOPER"
              ? "Developer portal"
              : account.role === "MERCHANT"
                ? "Admin"
                : "Review console"}
          </NavLink>
        ) : null}
      </nav>
      <div className="topbar-account">
        {account ? (
          <>
            <span className="muted topbar-who" title={account.email}>
              {account.name} · <span className="role">{account.role.toLowerCase()}</span>
            </span>
            <Form method="post" action="/logout">
              <CsrfInput />
              <button type="submit" className="button-link">
                Sign out
              </button>
            </Form>
          </>
        ) : (
          <>
            <Link to="/login">Sign in</Link>
            <Link to="/signup" className="button small">
              Sign up
            </Link>
          </>
        )}
      </div>
    </header>
  );
}

/** The site builder's live preview (decision 017): framed by the admin, where a browser may refuse it storage. */
const PREVIEW_ROUTE = "routes/s.$businessSlug_.preview.$pageSlug";

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  // storefronts reach the screen's edges (viewport-fit=cover) and keep their fixed launchers inside env(safe-area-inset-*)
  const storefront = isStorefrontPath(useLocation().pathname);
  // scroll restoration keeps positions in sessionStorage, which a framed page of another site may not have
  const preview = useMatches().some((m) => m.id === PREVIEW_ROUTE);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta
          name="viewport"
          content={
            storefront
              ? "width=device-width, initial-scale=1, viewport-fit=cover"
              : "width=device-width, initial-scale=1"
          }
        />
        <Meta />
        <Links />
        <EmbedScripts position="head" />
      </head>
      <body>
        {children}
        {preview ? null : <ScrollRestoration nonce={nonce} />}
        <Scripts nonce={nonce} />
        <EmbedScripts position="body_end" />
      </body>
    </html>
  );
}

export default function App() {
  useLoaderData<typeof loader>();
  // storefronts (/s/<business>) are the merchant's own site: no platform header there
  const storefront = isStorefrontPath(useLocation().pathname);
  return (
    <>
      {storefront ? null : (
        <>
          {/* every platform page's <main> is #main (the storefront has its own skip link) */}
          <a className="skip-link" href="#main">
            Skip to content
          </a>
          <Header />
        </>
      )}
      <Outlet />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const path = useLocation().pathname;
  // on the storefront's origin "home" is the shop; the platform's home page is on the other origin
  const shop = isStorefrontPath(path) ? path.split("/").slice(0, 3).join("/") : null;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = isRouteErrorResponse(error)
    ? typeof error.data === "string" && error.data
      ? error.data
      : status === 404
        ? "We could not find that page."
        : error.statusText
    : "Something went wrong on our side. Please try again.";
  return (
    <main id="main" tabIndex={-1} className="page narrow error-page">
      <h1>
        {status === 404
          ? "Page not found"
          : status === 403
            ? "Not allowed"
            : status === 400
              ? "We could not accept that"
              : "Something went wrong"}
      </h1>
      <p className="lead">{message}</p>
      <p>
        {shop && shop.length > 3 ? (
          <Link to={shop} reloadDocument>
            Back to the shop
          </Link>
        ) : shop ? null : (
          <Link to="/">Back to the home page</Link>
        )}
      </p>
    </main>
  );
}
