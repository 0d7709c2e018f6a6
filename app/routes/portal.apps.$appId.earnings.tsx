import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireDeveloperApp } from "~/platform/apps/guard.server";
import { appEarnings } from "~/platform/billing/earnings.server";
import { formatMoney, moneyToMajor } from "~/platform/core/money";
import { StatCard } from "~/components/area-layout";
import { SeriesChart } from "~/components/series-chart";
import { AppPageHeader, DataTable } from "~/components/page-parts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Earnings${data ? ` · ${data.app.name}` : ""} · Developer portal` },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { app } = await requireDeveloperApp(request, context, params.appId, "ADMIN");
  return json({
    app: { id: app.id, name: app.name, status: app.status },
    earnings: await appEarnings(context.db, app.id),
  });
}

const monthLabel = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString("en-US", { month: "short", year: "2-digit", timeZone: "UTC" });

export default function Earnings() {
  const { app, earnings } = useLoaderData<typeof loader>();
  const currencies = [...new Set(earnings.months.map((m) => m.currency))];
  const thisMonth = earnings.months.filter((m) => m.month === earnings.months[earnings.months.length - 1].month);
  const total = (key: "gross" | "fee" | "net", currency: string) =>
    earnings.months.filter((m) => m.currency === currency).reduce((s, m) => s + m[key].amount, 0);
  return (
    <div className="stack-lg">
      <AppPageHeader app={app} title="Earnings">
        What merchants paid for the app per calendar month (UTC), the platform&apos;s fee ({earnings.feeRate}) and your
        net earnings. Test charges are never invoiced and not counted.
      </AppPageHeader>
      <p>
        <a className="button small" href={`/portal/apps/${app.id}/earnings.csv`} download>
          Download CSV
        </a>
      </p>
      <div className="stats">
        {currencies.map((c) => (
          <StatCard key={c} label={`Net, 12 months (${c})`} value={formatMoney(total("net", c), c)} hint="after fees" />
        ))}
        {thisMonth.map((m) => (
          <StatCard
            key={m.currency}
            label={`Gross this month (${m.currency})`}
            value={formatMoney(m.gross.amount, m.gross.currency)}
            hint={m.month}
          />
        ))}
        <StatCard
          label="Active subscribers"
          value={earnings.subscribersByPlan.reduce((s, p) => s + p.active, 0)}
          hint="production installs"
        />
      </div>
      {currencies.map((c) => (
        <section className="card" key={c}>
          <SeriesChart
            title={`Earnings per month (${c}, major units)`}
            labelOf={monthLabel}
            days={earnings.months
              .filter((m) => m.currency === c)
              .map((m) => ({ date: m.month, net: moneyToMajor(m.net), fee: moneyToMajor(m.fee) }))}
            mode="stacked"
            series={[
              { key: "net", label: "Net", color: "#1d7f4e" },
              { key: "fee", label: "Platform fee", color: "#e5894a" },
            ]}
          />
        </section>
      ))}
      <section className="card stack" aria-labelledby="months-title">
        <h2 id="months-title">By month</h2>
        <DataTable
          rows={[...earnings.months].reverse()}
          rowKey={(m) => `${m.month}-${m.currency}`}
          rowProps={(m) =>
            ({
              "data-testid": "earnings-row",
              "data-month": m.month,
              "data-gross": String(m.gross.amount),
              "data-fee": String(m.fee.amount),
              "data-net": String(m.net.amount),
            }) as never
          }
          columns={[
            { head: "Month", className: "nowrap", cell: (m) => m.month },
            { head: "Gross", className: "num", cell: (m) => formatMoney(m.gross.amount, m.gross.currency) },
            { head: "Fee", className: "num", cell: (m) => formatMoney(m.fee.amount, m.fee.currency) },
            { head: "Net", className: "num", cell: (m) => formatMoney(m.net.amount, m.net.currency) },
          ]}
        />
      </section>
      <div className="grid-2">
        <section className="card stack" aria-labelledby="plans-title">
          <h2 id="plans-title">Subscribers by plan</h2>
          {earnings.subscribersByPlan.length === 0 ? (
            <p className="muted">No active subscriptions yet.</p>
          ) : (
            <DataTable
              rows={earnings.subscribersByPlan}
              rowKey={(p) => p.planId ?? "charge"}
              columns={[
                { head: "Plan", cell: (p) => p.name },
                { head: "Active", className: "num", cell: (p) => p.active },
              ]}
            />
          )}
        </section>
        <section className="card stack" aria-labelledby="churn-title">
          <h2 id="churn-title">Churn</h2>
          <DataTable
            rows={[...earnings.churn].reverse().slice(0, 6)}
            rowKey={(m) => m.month}
            columns={[
              { head: "Month", cell: (m) => m.month },
              { head: "Started", className: "num", cell: (m) => m.started },
              { head: "Cancelled", className: "num", cell: (m) => m.cancelled },
            ]}
          />
        </section>
      </div>
    </div>
  );
}
