import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { listMarketplaceApps } from "~/platform/apps/apps.server";
import { CATEGORIES, CATEGORY_LABELS, type Category } from "~/platform/apps/catalog";
import { EmptyState } from "~/components/area-layout";
import { AppIcon } from "~/components/app-icon";

export const meta: MetaFunction = () => [{ title: "Marketplace · Storefront Apps" }];

const MAX_QUERY = 100;

function readFilters(url: URL): { category: Category | null; q: string } {
  const rawCategory = url.searchParams.get("category");
  const category = rawCategory && (CATEGORIES as readonly string[]).includes(rawCategory) ? (rawCategory as Category) : null;
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, MAX_QUERY).trim();
  return { category, q };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { category, q } = readFilters(new URL(request.url));
  const apps = await listMarketplaceApps(context.db, { category: category ?? undefined, q: q || undefined });
  return json({ apps, category, q });
}

/** The marketplace URL for a category (null: all) that keeps the search words. */
function filterHref(category: Category | null, q: string) {
  const params = new URLSearchParams();
  if (category) params.set("category", category);
  if (q) params.set("q", q);
  const search = params.toString();
  return search ? `/marketplace?${search}` : "/marketplace";
}

const isWebUrl = (url: string | null | undefined): url is string => typeof url === "string" && /^https?:\/\//i.test(url);
const categoryLabel = (category: string) => CATEGORY_LABELS[category as Category] ?? category;

export default function Marketplace() {
  const { apps, category, q } = useLoaderData<typeof loader>();
  const filtered = Boolean(category || q);
  return (
    <main id="main" tabIndex={-1} className="page stack-lg">
      <header className="page-head">
        <h1>Marketplace</h1>
        <p className="lead">Apps reviewed by our team, ready to install on your shop.</p>
      </header>

      <div className="market-filters stack">
        <Form method="get" className="search-form" role="search">
          {category ? <input type="hidden" name="category" value={category} /> : null}
          <input type="search" name="q" defaultValue={q} maxLength={MAX_QUERY} placeholder="Search apps by name" aria-label="Search apps" key={q} />
          <button type="submit" className="button primary">Search</button>
        </Form>
        <nav className="pills" aria-label="Categories">
          <Link to={filterHref(null, q)} className={category ? "pill" : "pill active"} aria-current={category ? undefined : "page"}>
            All
          </Link>
          {CATEGORIES.map((c) => (
            <Link key={c} to={filterHref(c, q)} className={category === c ? "pill active" : "pill"} aria-current={category === c ? "page" : undefined}>
              {CATEGORY_LABELS[c]}
            </Link>
          ))}
        </nav>
      </div>

      {apps.length === 0 ? (
        filtered ? (
          <EmptyState title={q ? `No apps match "${q}"` : `No apps in ${categoryLabel(category ?? "")} yet`}>
            <p>
              {q && category ? <>Nothing found in {categoryLabel(category)}. </> : null}
              <Link to="/marketplace">Clear filters</Link> to see every app.
            </p>
          </EmptyState>
        ) : (
          <EmptyState title="No apps published yet">Approved apps appear here.</EmptyState>
        )
      ) : (
        <>
          {filtered ? (
            <p className="muted small" role="status">
              {apps.length} {apps.length === 1 ? "app" : "apps"} found · <Link to="/marketplace">Clear filters</Link>
            </p>
          ) : null}
          <ul className="app-grid">
            {apps.map((a) => (
              <li key={a.id} className="card app-card">
                <div className="app-card-top">
                  <AppIcon name={a.name} iconUrl={a.iconUrl} />
                  <div className="app-card-title">
                    <h2>
                      <Link to={`/marketplace/${a.slug}`} className="stretched-link">{a.name}</Link>
                    </h2>
                    <span className="muted small">by {a.developerName}</span>
                  </div>
                </div>
                <div>
                  <span className="badge">{categoryLabel(a.category)}</span>
                </div>
                <p className="muted app-card-desc">{a.description}</p>
              </li>
            ))}
          </ul>
        </>
      )}
    </main>
  );
}

