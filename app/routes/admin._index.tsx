import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/platform/accounts/session.server";
import { businessSummary } from "~/platform/catalog/summary.server";
import { StatCard } from "~/components/area-layout";

export const meta: MetaFunction = () => [{ title: "Admin · Storefront Apps" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { business } = await requireUser(request, context, "MERCHANT");
  if (!business) throw new Response("This account has no business.", { status: 403 });
  return json({ business: { name: business.name, slug: business.slug }, summary: await businessSummary(context.db, business.id) });
}

export default function AdminHome() {
  const { business, summary } = useLoaderData<typeof loader>();
  return (
    <div className="stack-lg">
      <header className="page-head">
        <h1>{business.name}</h1>
        <p className="lead">
          Your storefront is live at <a href={`/s/${business.slug}`}>/s/{business.slug}</a>.
        </p>
      </header>
      <div className="stats">
        <StatCard label="Products" value={summary.products} />
        <StatCard label="Orders" value={summary.orders} hint={`${summary.openOrders} open`} />
        <StatCard label="Reviews" value={summary.reviews} />
        <StatCard label="Site pages" value={summary.pages} />
      </div>
      <section className="card">
        <h2>Grow with apps</h2>
        <p className="muted">Payments, loyalty, shipping, analytics and more: apps plug into your checkout, site and admin.</p>
        <p><Link to="/marketplace" className="button">Browse the marketplace</Link></p>
      </section>
    </div>
  );
}
