import { useStorefrontUrl } from "~/components/origins";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { dashboard } from "~/platform/catalog/queries.server";
import { dailyOrders } from "~/platform/catalog/admin-queries.server";
import { formatMoney, type Money } from "~/platform/core/money";
import { now } from "~/platform/core/clock.server";
import { dateFormatter } from "~/platform/core/dates";
import { EmptyState, StatCard } from "~/components/area-layout";
import { BarChart } from "~/components/bar-chart";
import { ORDER_TONE, statusLabel } from "~/components/status-badge";
import { Card, DataTable, PageHeader } from "~/components/page-parts";
import { PERMISSION_LABELS, type Permission } from "~/platform/accounts/permissions";
import { useShopFormat } from "~/components/shop-format";
import { SetupGuide } from "~/components/setup-guide";
import { setupGuide } from "~/platform/catalog/setup-guide.server";

export const meta: MetaFunction = () => [{ title: "Dashboard · Admin" }];

const OPEN = ["PENDING", "CONFIRMED", "PREPARING", "READY", "IN_DELIVERY"];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { business, sandbox, member } = await requireMerchant(request, context, null);
  // every member has the dashboard; its order and revenue figures are the `orders` permission's
  // (contract 17): without it, a welcome with the member's own part of the admin
  if (!member.permissions.includes("orders"))
    return json({
      business: { name: business.name, slug: business.slug, currency: business.currency, locale: business.locale },
      permissions: member.permissions,
      figures: null,
      sandbox,
    });
  // days are the shop's days (its time zone)
  const dates = dateFormatter(business.locale, business.timezone);
  const [d, daily, guide] = await Promise.all([
    dashboard(context.db, business.id, business.currency, dates.timeZone),
    dailyOrders(context.db, business.id, 30, dates.timeZone),
    setupGuide(context.db, business.id),
  ]);
  const money = (m: Money) => formatMoney(m.amount, m.currency, business.locale);
  const figures = {
    today: dates.localDay(now()),
    stats: {
      todayOrders: d.today.orders,
      todayRevenue: money(d.today.revenue),
      monthOrders: d.last30Days.orders,
      monthRevenue: money(d.last30Days.revenue),
      averageOrderValue: money(d.averageOrderValue),
      openOrders: OPEN.reduce((n, s) => n + (d.ordersByStatus[s] ?? 0), 0),
    },
    ordersByStatus: Object.entries(d.ordersByStatus).map(([status, n]) => ({ status, n })),
    topProducts: d.topProducts.map((p) => ({ ...p, revenue: money(p.revenue) })),
    daily,
    // the first steps of a new shop, until the merchant hides them (decision 061)
    guide: guide.dismissed ? null : { steps: guide.steps, doneCount: guide.doneCount },
  };
  return json({
    business: { name: business.name, slug: business.slug, currency: business.currency, locale: business.locale },
    permissions: member.permissions,
    figures,
    sandbox,
  });
}

export default function AdminHome() {
  const { business, figures, permissions, sandbox } = useLoaderData<typeof loader>();
  if (!figures) return <MemberHome name={business.name} permissions={permissions} />;
  return <Dashboard business={business} figures={figures} sandbox={sandbox} />;
}

/** The dashboard of a member without `orders`: the parts of the admin they may use. */
function MemberHome({ name, permissions }: { name: string; permissions: Permission[] }) {
  return (
    <div className="stack-lg">
      <PageHeader title={name} className="page-head">
        Welcome. Your permissions in this business:{" "}
        {permissions.length ? permissions.map((p) => PERMISSION_LABELS[p].label).join(", ") : "none yet"}.
      </PageHeader>
      <p className="muted">The menu shows the parts of the admin you may use; ask the owner for more.</p>
    </div>
  );
}

function Dashboard({
  business,
  figures,
  sandbox,
}: {
  business: { name: string; slug: string; currency: string; locale: string };
  figures: NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["figures"]>;
  sandbox: boolean;
}) {
  const { today, stats, ordersByStatus, topProducts, daily, guide } = figures;
  const storefront = useStorefrontUrl();
  const { money, dates, count } = useShopFormat();
  const day = (ymd: string) => dates.calendarDay(ymd, { short: true });
  const totalOrders = ordersByStatus.reduce((n, s) => n + s.n, 0);
  return (
    <div className="stack-lg">
      <header className="page-head">
        <h1>{business.name}</h1>
        <p className="lead">
          Your storefront is live at <a href={storefront(`/s/${business.slug}`)}>{storefront(`/s/${business.slug}`)}</a>
          .
        </p>
      </header>

      {guide ? <SetupGuide guide={guide} shopPath={`/s/${business.slug}`} /> : null}

      <section aria-labelledby="figures-head" className="stack">
        <h2 id="figures-head" className="sr-only">
          Key figures
        </h2>
        <div className="stats">
          <StatCard
            label="Orders today"
            value={stats.todayOrders}
            hint={`${dates.calendarDay(today)} (${dates.timeZone})`}
          />
          <StatCard label="Revenue today" value={stats.todayRevenue} />
          <StatCard label="Orders, 30 days" value={stats.monthOrders} />
          <StatCard label="Revenue, 30 days" value={stats.monthRevenue} hint="cancelled orders excluded" />
          <StatCard label="Average order" value={stats.averageOrderValue} hint="over 30 days" />
          <StatCard label="Open orders" value={stats.openOrders} hint="not delivered or cancelled" />
        </div>
      </section>

      <Card
        title="Last 30 days"
        id="chart-head"
        aside={<span className="muted small">Days in {dates.timeZone}, cancelled orders excluded from revenue</span>}
      >
        <div className="chart-grid">
          <div>
            <h3>Revenue per day</h3>
            <BarChart
              series={daily.map((d) => ({ date: d.date, value: d.revenue }))}
              label="Revenue per day"
              formatValue={(minor) => money(minor)}
              formatDate={day}
            />
          </div>
          <div>
            <h3>Orders per day</h3>
            <BarChart
              series={daily.map((d) => ({ date: d.date, value: d.orders }))}
              label="Orders per day"
              formatValue={count}
              formatDate={day}
            />
          </div>
        </div>
      </Card>

      <div className="grid-2">
        <Card
          title="Orders by status"
          id="status-head"
          aside={
            <Link to="/admin/orders" className="small">
              All orders
            </Link>
          }
        >
          {totalOrders === 0 ? (
            <EmptyState title="No orders yet">Orders placed in your storefront appear here.</EmptyState>
          ) : (
            <ul className="status-list">
              {ordersByStatus.map((s) => (
                <li key={s.status}>
                  <Link to={`/admin/orders?status=${s.status}`}>
                    <span className={`badge ${ORDER_TONE[s.status] ?? ""}`}>{statusLabel(s.status)}</span>
                  </Link>
                  <strong>{count(s.n)}</strong>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card title="Top products" id="top-head" aside={<span className="muted small">by quantity, 30 days</span>}>
          {topProducts.length === 0 ? (
            <EmptyState title="No sales in the last 30 days" />
          ) : (
            <DataTable
              className="table keep"
              rows={topProducts}
              rowKey={(p) => p.productId}
              columns={[
                { head: "Product", className: "break", cell: (p) => p.name },
                { head: "Sold", num: true, cell: (p) => p.quantity },
                { head: "Revenue", num: true, cell: (p) => p.revenue },
              ]}
            />
          )}
        </Card>
      </div>

      {sandbox ? (
        <Card title="Try your apps here" className="card">
          <p className="muted">
            Test-install one of your apps from the portal, then place its blocks in the site builder and switch its
            embeds on: the sandbox&apos;s storefront shows them at once, without review.
          </p>
          <p className="row">
            <Link to="/portal/apps" className="button">
              Your apps
            </Link>
            <Link to="/admin/pages/home" className="button">
              Edit the home page
            </Link>
          </p>
        </Card>
      ) : (
        <Card title="Grow with apps" className="card">
          <p className="muted">
            Payments, loyalty, shipping, analytics and more: apps plug into your checkout, site and admin.
          </p>
          <p>
            <Link to="/marketplace" className="button">
              Browse the marketplace
            </Link>
          </p>
        </Card>
      )}
    </div>
  );
}
