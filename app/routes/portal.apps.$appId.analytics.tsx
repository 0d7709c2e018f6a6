import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireDeveloperApp } from "~/platform/apps/guard.server";
import { appAnalytics } from "~/platform/analytics/analytics.server";
import { StatCard } from "~/components/area-layout";
import { SeriesChart } from "~/components/series-chart";
import { AppPageHeader } from "~/components/page-parts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Analytics${data ? ` · ${data.app.name}` : ""} · Developer portal` },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { app } = await requireDeveloperApp(request, context, params.appId, "VIEWER");
  return json({
    app: { id: app.id, name: app.name, status: app.status },
    figures: await appAnalytics(context.db, app.id),
  });
}

export default function Analytics() {
  const { app, figures } = useLoaderData<typeof loader>();
  const fresh = figures.totalInstalls === 0 && figures.webhookSuccessRate === null;
  return (
    <div className="stack-lg">
      <AppPageHeader app={app} title="Analytics">
        Production installs and webhook deliveries of the last 30 days (UTC). Test installs on your sandbox are left
        out.
      </AppPageHeader>
      {fresh ? (
        <p className="alert info">
          {app.status === "APPROVED"
            ? "No merchant has installed the app yet."
            : "Figures start when the app is approved and merchants install it."}{" "}
          The charts fill in as installs and deliveries happen.
        </p>
      ) : null}
      <div className="stats">
        <StatCard label="Total installs" value={figures.totalInstalls} hint="lifetime" />
        <StatCard label="Active installs" value={figures.activeInstalls} hint="not uninstalled" />
        <StatCard
          label="Webhook success rate"
          value={figures.webhookSuccessRate === null ? "—" : `${figures.webhookSuccessRate}%`}
          hint="attempts, 30 days"
        />
        <StatCard
          label="Average latency"
          value={figures.avgWebhookLatencyMs === null ? "—" : `${Math.round(figures.avgWebhookLatencyMs)} ms`}
          hint="answered attempts"
        />
      </div>
      <section className="card">
        <SeriesChart
          title="Install trend"
          days={figures.installTrend}
          series={[
            { key: "installs", label: "Installs", color: "#2f5bea" },
            { key: "uninstalls", label: "Uninstalls", color: "#e5894a" },
          ]}
        />
      </section>
      <section className="card">
        <SeriesChart
          title="Webhook deliveries"
          mode="stacked"
          days={figures.webhookDeliveries}
          series={[
            { key: "succeeded", label: "Succeeded", color: "#1d7f4e" },
            { key: "failed", label: "Failed", color: "#c62f3e" },
          ]}
        />
      </section>
    </div>
  );
}
