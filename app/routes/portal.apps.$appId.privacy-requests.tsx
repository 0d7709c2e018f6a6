import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireDeveloperApp } from "~/platform/apps/guard.server";
import { listComplianceDeliveries } from "~/platform/privacy/compliance.server";
import { EmptyState } from "~/components/area-layout";
import { Pagination } from "~/components/pagination";
import { AppPageHeader, utcDateTime } from "~/components/page-parts";
import { PrivacyRequestTable } from "~/components/privacy-requests";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Privacy requests${data ? ` · ${data.app.name}` : ""} · Developer portal` },
];

const PER_PAGE = 20;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { app } = await requireDeveloperApp(request, context, params.appId, "VIEWER");
  const asked = Number(new URL(request.url).searchParams.get("page"));
  const page = Number.isInteger(asked) && asked > 0 ? asked : 1;
  const { rows, total } = await listComplianceDeliveries(context.db, app.id, {
    limit: PER_PAGE,
    offset: (page - 1) * PER_PAGE,
  });
  return json({
    app: { id: app.id, name: app.name },
    page,
    pages: Math.max(1, Math.ceil(total / PER_PAGE)),
    total,
    requests: rows.map((r) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      nextAttemptAt: r.nextAttemptAt?.toISOString() ?? null,
    })),
  });
}

const tone = (status: string) =>
  status === "SUCCEEDED" ? "ok" : status === "FAILED" ? "danger" : status === "RETRYING" ? "warn" : "info";

export default function AppPrivacyRequests() {
  const { app, page, pages, total, requests } = useLoaderData<typeof loader>();
  return (
    <div className="stack-lg">
      <AppPageHeader app={app} title="Privacy requests" className="stack">
        When a merchant exports or erases a shopper&apos;s data, every installation holding read_orders or read_reviews
        is sent <code>customer.data_request</code> or <code>customer.redact</code> at its webhook URL, without
        subscribing. Answer 2xx, then send the shopper&apos;s data to the merchant or erase it within 30 days. See{" "}
        <Link to="/portal/docs/privacy">Customer privacy</Link>.
      </AppPageHeader>
      {requests.length === 0 ? (
        <EmptyState title="No privacy requests yet">
          <p>Requests from merchants who installed this app appear here with their delivery status.</p>
        </EmptyState>
      ) : (
        <>
          <p className="muted small">
            {total} {total === 1 ? "request" : "requests"}, newest first
          </p>
          <PrivacyRequestTable
            rows={requests}
            columns={[
              { head: "Sent", className: "nowrap", cell: (r) => utcDateTime(r.createdAt) },
              { head: "Event", cell: (r) => <code>{r.event}</code> },
              {
                head: "Business",
                className: "break",
                cell: (r) => (
                  <>
                    {r.businessName}
                    {r.isTestInstall ? <span className="muted"> (test install)</span> : null}
                  </>
                ),
              },
              { head: "Orders", num: true, cell: (r) => r.orderCount },
              { head: "Reviews", num: true, cell: (r) => r.reviewCount },
              {
                head: "Delivery",
                cell: (r) => (
                  <>
                    <span className={`badge ${tone(r.status)}`}>{r.status}</span>{" "}
                    <span className="muted small">
                      {r.attempts} {r.attempts === 1 ? "attempt" : "attempts"}
                      {r.lastStatusCode ? `, HTTP ${r.lastStatusCode}` : ""}
                      {r.nextAttemptAt && r.status !== "SUCCEEDED" && r.status !== "FAILED"
                        ? `, next ${utcDateTime(r.nextAttemptAt)}`
                        : ""}
                    </span>
                  </>
                ),
              },
              {
                head: "Request",
                className: "mono small break",
                cell: (r) => (
                  <Link to={`/portal/apps/${app.id}/webhooks?webhook=${r.webhookId}`} title="Open the delivery log">
                    {r.requestId}
                  </Link>
                ),
              },
            ]}
          />
        </>
      )}
      <Pagination page={page} pages={pages} path={`/portal/apps/${app.id}/privacy-requests`} />
    </div>
  );
}
