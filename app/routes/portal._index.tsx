import { useStorefrontUrl } from "~/components/origins";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireDeveloper } from "~/platform/accounts/guards.server";
import { businessSummary } from "~/platform/catalog/summary.server";
import { StatCard } from "~/components/area-layout";
import { listNotifications } from "~/platform/apps/app-reviews.server";

export const meta: MetaFunction = () => [{ title: "Overview · Developer portal" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { account, business } = await requireDeveloper(request, context);
  const [summary, notes] = await Promise.all([
    business ? businessSummary(context.db, business.id) : null,
    listNotifications(context.db, account.id, { limit: 10, offset: 0 }),
  ]);
  const notifications = notes.rows.map(({ n, appName }) => ({
    id: n.id,
    appId: n.appId,
    appName,
    type: n.type,
    rating: typeof n.data.rating === "number" ? n.data.rating : null,
    apiVersion: typeof n.data.version === "string" ? n.data.version : null,
    sunsetAt: typeof n.data.sunsetAt === "string" ? n.data.sunsetAt.slice(0, 10) : null,
    createdAt: n.createdAt.toISOString(),
  }));
  return json({
    name: account.name,
    sandbox: business ? { id: business.id, name: business.name, slug: business.slug } : null,
    summary,
    notifications,
  });
}

export default function PortalHome() {
  const { name, sandbox, summary, notifications } = useLoaderData<typeof loader>();
  const storefront = useStorefrontUrl();
  return (
    <div className="stack-lg">
      <header className="page-head">
        <h1>Welcome, {name}</h1>
        <p className="lead">Build an app, test-install it on your sandbox shop, then submit it for review.</p>
      </header>
      {sandbox && summary ? (
        <section className="card" aria-labelledby="sandbox-title">
          <div className="card-head">
            <h2 id="sandbox-title">Your sandbox business</h2>
            <span className="badge info">Sandbox</span>
          </div>
          <p>
            <strong data-testid="sandbox-name">{sandbox.name}</strong>{" "}
            <span className="muted small">({sandbox.id})</span>
          </p>
          <p className="muted">
            A private shop filled with demo data. Draft apps can be test-installed here without review.
          </p>
          <div className="stats">
            <StatCard label="Products" value={summary.products} />
            <StatCard label="Orders" value={summary.orders} hint={`${summary.openOrders} open`} />
            <StatCard label="Reviews" value={summary.reviews} />
            <StatCard label="Pages" value={summary.pages} />
          </div>
          <p>
            <a href={storefront(`/s/${sandbox.slug}`)}>Open the sandbox storefront →</a>
          </p>
        </section>
      ) : null}
      <section className="card stack" aria-labelledby="notifications-title">
        <h2 id="notifications-title">Notifications</h2>
        {notifications.length === 0 ? (
          <p className="muted">Nothing yet. When a merchant reviews one of your apps, you are told here.</p>
        ) : (
          <ul className="notification-list">
            {notifications.map((n) => (
              <li key={n.id} data-testid="notification">
                {n.type.startsWith("api_version.") ? (
                  <>
                    <strong>
                      {n.type === "api_version.sunset_soon"
                        ? `API version ${n.apiVersion} ends on ${n.sunsetAt}`
                        : `API version ${n.apiVersion} is deprecated`}
                    </strong>{" "}
                    · <Link to={`/portal/apps/${n.appId}/api`}>{n.appName} uses it: see what an upgrade changes</Link>
                    {n.type === "api_version.deprecated" ? ` (sunset ${n.sunsetAt})` : ""}{" "}
                  </>
                ) : (
                  <>
                    <strong>{n.type === "app_review.created" ? "New review" : "Review updated"}</strong> of{" "}
                    <Link to={`/portal/apps/${n.appId}/reviews`}>{n.appName}</Link>
                    {n.rating ? ` · ${n.rating} ${n.rating === 1 ? "star" : "stars"}` : ""}{" "}
                  </>
                )}
                <span className="muted small">
                  {new Date(n.createdAt).toLocaleString("en-US", {
                    dateStyle: "medium",
                    timeStyle: "short",
                    timeZone: "UTC",
                  })}{" "}
                  UTC · <code>{n.type}</code>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card">
        <h2>Next steps</h2>
        <ol className="steps">
          <li>
            <Link to="/portal/apps">Create your first app</Link> and keep its client secret safe.
          </li>
          <li>Test-install it on the sandbox and call the App API with the token.</li>
          <li>
            Submit it for review; once approved it appears in the <Link to="/marketplace">marketplace</Link>.
          </li>
        </ol>
      </section>
    </div>
  );
}
