import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listMarketplaceCards, listStaffPicks } from "~/platform/apps/marketplace.server";
import { MARKET_SORTS, MARKET_PAGE_SIZE, type MarketSort } from "~/platform/apps/marketplace-shared";
import { InstalledBy, RatingSummary } from "~/components/rating";
import { Pagination } from "~/components/pagination";
import { CATEGORIES, CATEGORY_LABELS, type Category } from "~/platform/shapes/app-catalog";
import { EmptyState } from "~/components/area-layout";
import { AppIcon } from "~/components/app-icon";
import { FilterPill, PageHeader, SearchForm } from "~/components/page-parts";

export const meta: MetaFunction = () => [
  { title: "Marketplace · Storefront Apps" },
  {
    name: "description",
    content:
      "Apps for your shop: payments, delivery, reviews, loyalty, chat and more, reviewed before they are listed and installed in one click.",
  },
];

const MAX_QUERY = 100;

const SORT_LABELS: Record<MarketSort, string> = {
  popular: "Most popular",
  rating: "Highest rated",
  newest: "Newest",
  name: "Name",
};

function readFilters(url: URL): { category: Category | null; q: string; sort: MarketSort; page: number } {
  const rawCategory = url.searchParams.get("category");
  const category =
    rawCategory && (CATEGORIES as readonly string[]).includes(rawCategory) ? (rawCategory as Category) : null;
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, MAX_QUERY).trim();
  const rawSort = url.searchParams.get("sort");
  const sort = rawSort && (MARKET_SORTS as readonly string[]).includes(rawSort) ? (rawSort as MarketSort) : "popular";
  const rawPage = Number(url.searchParams.get("page") ?? "1");
  const page = Number.isInteger(rawPage) && rawPage >= 1 && rawPage <= 10_000 ? rawPage : 1;
  return { category, q, sort, page };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { category, q, sort, page } = readFilters(new URL(request.url));
  const filtered = Boolean(category || q);
  const [{ rows: apps, total }, picks] = await Promise.all([
    listMarketplaceCards(context.db, {
      category: category ?? undefined,
      q: q || undefined,
      sort,
      limit: MARKET_PAGE_SIZE,
      offset: (page - 1) * MARKET_PAGE_SIZE,
    }),
    filtered || page > 1 ? Promise.resolve([]) : listStaffPicks(context.db),
  ]);
  return json({ apps, total, picks, category, q, sort, page, pages: Math.max(1, Math.ceil(total / MARKET_PAGE_SIZE)) });
}

/** The marketplace URL for a category (null: all) that keeps the search words and the sort. */
function filterHref(category: Category | null, q: string, sort: MarketSort = "popular") {
  const params = new URLSearchParams();
  if (category) params.set("category", category);
  if (q) params.set("q", q);
  if (sort !== "popular") params.set("sort", sort);
  const search = params.toString();
  return search ? `/marketplace?${search}` : "/marketplace";
}

type Card = ReturnType<typeof useLoaderData<typeof loader>>["apps"][number];

function AppCard({ a }: { a: Card }) {
  return (
    <li className="card app-card">
      <div className="app-card-top">
        <AppIcon name={a.name} iconUrl={a.iconUrl} />
        <div className="app-card-title">
          <h2>
            <Link to={`/marketplace/${a.slug}`} className="stretched-link">
              {a.name}
            </Link>
          </h2>
          <span className="muted small">by {a.developerName}</span>
        </div>
      </div>
      <div className="market-card-figures">
        <RatingSummary rating={a.rating} count={a.ratingCount} />
        <InstalledBy installs={a.activeInstalls} className="muted small" />
      </div>
      <div className="row wrap">
        <span className="badge">{categoryLabel(a.category)}</span>
        {a.pricing ? <span className="badge price">{a.pricing.price}</span> : null}
        {a.pricing?.trial ? <span className="badge info">{a.pricing.trial}</span> : null}
      </div>
      <p className="muted app-card-desc">{a.description}</p>
    </li>
  );
}

const categoryLabel = (category: string) => CATEGORY_LABELS[category as Category] ?? category;

export default function Marketplace() {
  const { apps, total, picks, category, q, sort, page, pages } = useLoaderData<typeof loader>();
  const filtered = Boolean(category || q);
  return (
    <main id="main" tabIndex={-1} className="page stack-lg">
      <PageHeader title="Marketplace" className="page-head">
        Apps reviewed by our team, ready to install on your shop.
      </PageHeader>

      <div className="market-filters stack">
        <SearchForm
          q={q}
          maxLength={MAX_QUERY}
          placeholder="Search apps by name"
          label="Search apps"
          buttonClass="button primary"
        >
          {category ? <input type="hidden" name="category" value={category} /> : null}
        </SearchForm>
        <nav className="pills" aria-label="Categories">
          <FilterPill to={filterHref(null, q, sort)} active={!category}>
            All
          </FilterPill>
          {CATEGORIES.map((c) => (
            <FilterPill key={c} to={filterHref(c, q, sort)} active={category === c}>
              {CATEGORY_LABELS[c]}
            </FilterPill>
          ))}
        </nav>
        <nav className="pills market-sorts" aria-label="Sort apps">
          <span className="muted small">Sort:</span>
          {MARKET_SORTS.map((s) => (
            <FilterPill key={s} to={filterHref(category, q, s)} active={sort === s} current="true">
              {SORT_LABELS[s]}
            </FilterPill>
          ))}
        </nav>
      </div>

      {picks.length > 0 ? (
        <section className="stack staff-picks" aria-labelledby="picks-title">
          <h2 id="picks-title">Staff picks</h2>
          <ul className="app-grid">
            {picks.map((a) => (
              <AppCard key={a.id} a={a} />
            ))}
          </ul>
        </section>
      ) : null}

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
              {total} {total === 1 ? "app" : "apps"} found · <Link to="/marketplace">Clear filters</Link>
            </p>
          ) : null}
          {picks.length > 0 ? <h2 id="all-title">All apps</h2> : null}
          <ul className="app-grid">
            {apps.map((a) => (
              <AppCard key={a.id} a={a} />
            ))}
          </ul>
          <Pagination
            page={page}
            pages={pages}
            path="/marketplace"
            query={{ category, q, sort: sort === "popular" ? null : sort }}
          />
        </>
      )}
    </main>
  );
}
