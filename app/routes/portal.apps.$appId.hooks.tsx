import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireDeveloperApp } from "~/platform/apps/guard.server";
import { parsePagination } from "~/platform/core/http.server";
import { appHookCalls } from "~/platform/hooks/hook-log.server";
import { HOOK_POINTS } from "~/platform/shapes/manifest";
import { EmptyState } from "~/components/area-layout";
import { AppPageHeader, DataTable, FilterPill, utcDateTime } from "~/components/page-parts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Hook calls${data ? ` · ${data.app.name}` : ""} · Developer portal` },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { app } = await requireDeveloperApp(request, context, params.appId, "VIEWER");
  const url = new URL(request.url);
  const point = url.searchParams.get("hookPoint");
  const hookPoint = point && (HOOK_POINTS as readonly string[]).includes(point) ? point : undefined;
  let page = { page: 1, limit: 50, offset: 0 };
  try {
    page = parsePagination(url, { limit: 50, max: 100 });
  } catch {
    /* first page */
  }
  const { rows, total } = await appHookCalls(context.db, app.id, page, hookPoint);
  return json({
    app: { id: app.id, name: app.name },
    hookPoint: hookPoint ?? null,
    page: page.page,
    pages: Math.max(1, Math.ceil(total / page.limit)),
    calls: rows.map((r) => ({
      id: r.call.id,
      hookPoint: r.call.hookPoint,
      business: r.businessName,
      success: r.call.success,
      statusCode: r.call.statusCode,
      durationMs: r.call.durationMs,
      error: r.call.error,
      at: r.call.createdAt.toISOString(),
    })),
  });
}

export default function HookLog() {
  const data = useLoaderData<typeof loader>();
  const q = (extra: Record<string, string>) =>
    "?" + new URLSearchParams({ ...(data.hookPoint ? { hookPoint: data.hookPoint } : {}), ...extra });
  return (
    <div className="stack-lg">
      <AppPageHeader app={data.app} title="Hook calls">
        Every synchronous call the platform made to your hooks during checkouts. Failed calls were skipped (fail-open);
        5 failures in a row pause a hook for 30 seconds.
      </AppPageHeader>
      <nav className="pills" aria-label="Hook points">
        <FilterPill to="?" active={data.hookPoint === null}>
          All
        </FilterPill>
        {HOOK_POINTS.map((h) => (
          <FilterPill key={h} to={`?hookPoint=${h}`} active={data.hookPoint === h}>
            {h}
          </FilterPill>
        ))}
      </nav>
      {data.calls.length === 0 ? (
        <EmptyState title="No hook calls yet">
          Declare hooks in the manifest, install the app on your sandbox and check out in its storefront.
        </EmptyState>
      ) : (
        <DataTable
          data-testid="hook-calls"
          rows={data.calls}
          rowKey={(c) => c.id}
          columns={[
            { head: "When", className: "small", cell: (c) => utcDateTime(c.at, true) },
            { head: "Hook point", cell: (c) => <code>{c.hookPoint}</code> },
            { head: "Business", cell: (c) => c.business },
            {
              head: "Result",
              cell: (c) =>
                c.success ? (
                  <span className="badge ok">OK {c.statusCode}</span>
                ) : (
                  <span className="badge danger">{c.statusCode ? `HTTP ${c.statusCode}` : "failed"}</span>
                ),
            },
            { head: "Duration", cell: (c) => `${c.durationMs} ms` },
            { head: "Error", className: "small muted wide", cell: (c) => c.error ?? "" },
          ]}
        />
      )}
      {data.pages > 1 ? (
        <nav className="row" aria-label="Pages">
          {data.page > 1 ? <Link to={q({ page: String(data.page - 1) })}>← Newer</Link> : null}
          <span className="muted small">
            Page {data.page} of {data.pages}
          </span>
          {data.page < data.pages ? <Link to={q({ page: String(data.page + 1) })}>Older →</Link> : null}
        </nav>
      ) : null}
    </div>
  );
}
