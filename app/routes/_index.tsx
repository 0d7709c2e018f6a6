import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { sql } from "drizzle-orm";

export const meta: MetaFunction = () => [
  { title: "Storefront Apps · the open app platform for merchants" },
  {
    name: "description",
    content: "Install apps into your storefront, checkout, site builder and admin; build apps on an open API.",
  },
];

export async function loader({ context }: LoaderFunctionArgs) {
  const [row] = await context.db.execute<{ apps: number; shops: number }>(
    sql`select (select count(*)::int from apps where status = 'APPROVED' or published_at is not null) as apps,
               (select count(*)::int from businesses where not is_sandbox) as shops`,
  );
  return json({ apps: row.apps, shops: row.shops });
}

export default function Landing() {
  const { apps, shops } = useLoaderData<typeof loader>();
  return (
    <main id="main" tabIndex={-1}>
      <section className="hero">
        <div className="page">
          <h1>Apps for every storefront.</h1>
          <p className="lead">
            An open app platform for merchants: payments, shipping, loyalty and analytics apps that plug into your
            checkout, site builder, storefront and admin, with a clear API and signed webhooks for the developers who
            build them.
          </p>
          <div className="row">
            <Link to="/marketplace" className="button primary large">
              Explore the marketplace
            </Link>
            <Link to="/signup?role=MERCHANT" className="button large">
              Open a shop
            </Link>
            <Link to="/signup" className="button large">
              Build an app
            </Link>
          </div>
          <p className="muted">
            {apps} published apps · {shops} shops
          </p>
        </div>
      </section>
      <section className="page features">
        <div className="card">
          <h2>For merchants</h2>
          <p>
            Install an app in one click through a consent screen that says exactly what it may read and change.
            Uninstall, and its data must be erased.
          </p>
        </div>
        <div className="card">
          <h2>For developers</h2>
          <p>
            A sandbox shop with demo data from the first minute, test installs without review, an App API, signed
            webhooks with retries, and checkout hooks.
          </p>
        </div>
        <div className="card">
          <h2>For shoppers</h2>
          <p>Fast storefront pages with the payment methods, discounts and widgets the merchant chose.</p>
        </div>
      </section>
    </main>
  );
}
