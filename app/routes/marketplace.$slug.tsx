import { planRow } from "~/platform/shapes/pricing";
import { PricingTable } from "~/components/pricing-table";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listAppReviews, starCounts } from "~/platform/apps/app-reviews.server";
import { listChangelog } from "~/platform/apps/marketplace.server";
import { InstalledBy, RatingSummary, Stars } from "~/components/rating";
import { FilterPill } from "~/components/page-parts";
import { Pagination } from "~/components/pagination";
import { getMarketplaceApp } from "~/platform/apps/apps.server";
import { CATEGORY_LABELS, SCOPES, type Category, type Scope } from "~/platform/shapes/app-catalog";
import { AppIcon } from "~/components/app-icon";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.app.name} · Marketplace · Storefront Apps` : "App not found · Storefront Apps" },
  ...(data ? [{ name: "description", content: data.app.description }] : []),
];

const REVIEWS_PER_PAGE = 10;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const row = await getMarketplaceApp(context.db, params.slug ?? "");
  if (!row) throw new Response("App not found", { status: 404 });
  const { app, developerName } = row;
  const url = new URL(request.url);
  const starsParam = Number(url.searchParams.get("stars") ?? "");
  const stars = Number.isInteger(starsParam) && starsParam >= 1 && starsParam <= 5 ? starsParam : null;
  const pageParam = Number(url.searchParams.get("page") ?? "1");
  const page = Number.isInteger(pageParam) && pageParam >= 1 && pageParam <= 10_000 ? pageParam : 1;
  const [reviews, counts, changelog] = await Promise.all([
    listAppReviews(context.db, app.id, {
      limit: REVIEWS_PER_PAGE,
      offset: (page - 1) * REVIEWS_PER_PAGE,
      stars: stars ?? undefined,
    }),
    starCounts(context.db, app.id),
    listChangelog(context.db, app.id),
  ]);
  // Only what the public page shows: never credentials, review notes or the manifest.
  return json({
    app: {
      name: app.name,
      slug: app.slug,
      description: app.description,
      category: app.category,
      version: app.version,
      iconUrl: app.iconUrl,
      screenshots: app.screenshots.slice(0, 5),
      approvedScopes: app.approvedScopes,
      plans: app.approvedPricing.map((plan) => planRow(plan)),
      developerName,
      rating: app.ratingAvg === null ? null : Number(app.ratingAvg),
      ratingCount: app.ratingCount,
      activeInstalls: app.activeInstalls,
    },
    reviews: reviews.rows.map((r) => ({
      id: r.id,
      businessName: r.businessName,
      rating: r.rating,
      body: r.body,
      reply: r.reply,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    })),
    reviewTotal: reviews.total,
    counts,
    stars,
    page,
    pages: Math.max(1, Math.ceil(reviews.total / REVIEWS_PER_PAGE)),
    changelog: changelog.map((c) => ({
      version: c.version,
      releaseNotes: c.releaseNotes,
      approvedAt: c.approvedAt.toISOString(),
    })),
  });
}

const isWebUrl = (url: string | null | undefined): url is string =>
  typeof url === "string" && /^https?:\/\//i.test(url);
const categoryLabel = (category: string) => CATEGORY_LABELS[category as Category] ?? category;

const dateText = (iso: string) =>
  new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

export default function MarketplaceApp() {
  const { app, reviews, reviewTotal, counts, stars, page, pages, changelog } = useLoaderData<typeof loader>();
  const starHref = (n: number | null) =>
    n ? `/marketplace/${app.slug}?stars=${n}#reviews` : `/marketplace/${app.slug}#reviews`;
  const screenshots = app.screenshots.filter(isWebUrl);
  return (
    <main id="main" tabIndex={-1} className="page stack-lg">
      <p className="small">
        <Link to="/marketplace">← Back to the marketplace</Link>
      </p>

      <header className="app-head">
        <AppIcon name={app.name} iconUrl={app.iconUrl} large />
        <div className="app-head-text">
          <h1>{app.name}</h1>
          <p className="muted">by {app.developerName}</p>
          <div className="meta-row">
            <span className="badge">{categoryLabel(app.category)}</span>
            <span className="muted small">Version {app.version}</span>
          </div>
          <div className="meta-row market-figures">
            <RatingSummary rating={app.rating} count={app.ratingCount} />
            <InstalledBy installs={app.activeInstalls} className="small" />
          </div>
        </div>
        <div className="app-head-actions">
          <Link to={`/marketplace/${app.slug}/install`} className="button primary large">
            Install
          </Link>
        </div>
      </header>

      <div className="detail-grid">
        <div className="stack-lg">
          <section className="card stack" aria-labelledby="about-title">
            <h2 id="about-title">About this app</h2>
            <p className="prewrap">{app.description}</p>
          </section>

          {app.plans.length > 0 ? (
            <section className="card stack" aria-labelledby="pricing-title">
              <h2 id="pricing-title">Pricing</h2>
              <PricingTable plans={app.plans} caption={`Plans of ${app.name}`} />
              <p className="muted small">Charges need your approval and appear on your monthly invoice.</p>
            </section>
          ) : null}

          {screenshots.length > 0 ? (
            <section className="card stack" aria-labelledby="screens-title">
              <h2 id="screens-title">Screenshots</h2>
              <ul className="gallery">
                {screenshots.map((url, i) => (
                  <li key={`${i}-${url}`}>
                    <a href={url} target="_blank" rel="noopener noreferrer nofollow">
                      <img src={url} alt={`Screenshot ${i + 1} of ${app.name}`} loading="lazy" />
                    </a>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}

          <section className="card stack" id="reviews" aria-labelledby="reviews-title">
            <h2 id="reviews-title">Reviews</h2>
            {app.ratingCount > 0 ? (
              <>
                <RatingSummary rating={app.rating} count={app.ratingCount} />
                <nav className="pills" aria-label="Filter reviews by stars">
                  <FilterPill to={starHref(null)} active={!stars} current="true">
                    All
                  </FilterPill>
                  {[5, 4, 3, 2, 1].map((n) => (
                    <FilterPill key={n} to={starHref(n)} active={stars === n} current="true">
                      {n} ★ ({counts[n] ?? 0})
                    </FilterPill>
                  ))}
                </nav>
              </>
            ) : null}
            {reviews.length === 0 ? (
              <p className="muted">
                {stars
                  ? `No ${stars}-star reviews.`
                  : "No reviews yet. Businesses that install the app can review it from their Apps page."}
              </p>
            ) : (
              <ul className="review-list">
                {reviews.map((r) => (
                  <li key={r.id} className="review-item stack-sm">
                    <div className="review-head">
                      <Stars value={r.rating} label={`${r.rating} out of 5 stars`} />
                      <strong>{r.businessName}</strong>
                      <span className="muted small">
                        {dateText(r.createdAt)}
                        {r.updatedAt !== r.createdAt ? " (edited)" : ""}
                      </span>
                    </div>
                    {r.body ? <p className="prewrap">{r.body}</p> : null}
                    {r.reply ? (
                      <div className="review-reply">
                        <p className="small">
                          <strong>Reply from {app.developerName}</strong>{" "}
                          <span className="muted">{dateText(r.reply.createdAt)}</span>
                        </p>
                        <p className="prewrap">{r.reply.body}</p>
                      </div>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
            {reviewTotal > 0 ? (
              <Pagination
                page={page}
                pages={pages}
                path={`/marketplace/${app.slug}`}
                query={{ stars: stars ? String(stars) : null }}
              />
            ) : null}
          </section>

          <section className="card stack" aria-labelledby="changelog-title">
            <h2 id="changelog-title">Changelog</h2>
            {changelog.length === 0 ? (
              <p className="muted">No versions yet.</p>
            ) : (
              <ol className="changelog">
                {changelog.map((c, i) => (
                  <li key={`${c.version}-${i}`} className="stack-sm">
                    <p>
                      <strong>Version {c.version}</strong> <span className="muted small">{dateText(c.approvedAt)}</span>
                    </p>
                    <p className={c.releaseNotes ? "prewrap" : "muted small"}>
                      {c.releaseNotes || "No release notes."}
                    </p>
                  </li>
                ))}
              </ol>
            )}
          </section>
        </div>

        <aside className="card stack" aria-labelledby="permissions-title">
          <h2 id="permissions-title">Permissions</h2>
          <p>
            <strong>This app will be able to:</strong>
          </p>
          {app.approvedScopes.length === 0 ? (
            <p className="muted">This app asks for no access to your shop data.</p>
          ) : (
            <ul className="permission-list">
              {app.approvedScopes.map((s) => (
                <li key={s}>{SCOPES[s as Scope] ?? s}</li>
              ))}
            </ul>
          )}
          <p className="muted small">You will be asked to confirm these permissions when you install the app.</p>
        </aside>
      </div>
    </main>
  );
}
