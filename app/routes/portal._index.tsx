import { useStorefrontUrl } from "~/components/origins";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/platform/accounts/session.server";
import { businessSummary } from "~/platform/catalog/summary.server";
import { StatCard } from "~/components/area-layout";

export const meta: MetaFunction = () => [{ title: "Overview · Developer portal" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { account, business } = await requireUser(request, context, "DEVELOPER");
  const summary = business ? await businessSummary(context.db, business.id) : null;
  return json({ name: account.name, sandbox: business ? { id: business.id, name: business.name, slug: business.slug } : null, summary });
}

export default function PortalHome() {
  const { name, sandbox, summary } = useLoaderData<typeof loader>();
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
            <strong data-testid="sandbox-name">{sandbox.name}</strong> <span className="muted small">({sandbox.id})</span>
          </p>
          <p className="muted">A private shop filled with demo data. Draft apps can be test-installed here without review.</p>
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
      <section className="card">
        <h2>Next steps</h2>
        <ol className="steps">
          <li><Link to="/portal/apps">Create your first app</Link> and keep its client secret safe.</li>
          <li>Test-install it on the sandbox and call the App API with the token.</li>
          <li>Submit it for review; once approved it appears in the <Link to="/marketplace">marketplace</Link>.</li>
        </ol>
      </section>
    </div>
  );
}
