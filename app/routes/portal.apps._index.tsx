import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireDeveloper } from "~/platform/accounts/guards.server";
import { listDeveloperApps } from "~/platform/apps/apps.server";
import { CATEGORY_LABELS, type Category } from "~/platform/shapes/app-catalog";
import { EmptyState } from "~/components/area-layout";
import { AppStatusBadge } from "~/components/status-badge";
import { DataTable, PageHeader, utcDateTime } from "~/components/page-parts";

export const meta: MetaFunction = () => [{ title: "My apps · Developer portal" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { account } = await requireDeveloper(request, context);
  const { rows } = await listDeveloperApps(context.db, account.id, { limit: 100, offset: 0 });
  return json({
    apps: rows.map((a) => ({
      id: a.id,
      name: a.name,
      slug: a.slug,
      category: a.category,
      version: a.version,
      status: a.status,
      updateInReview: a.updateInReview,
      rejected: a.status === "DRAFT" && !!a.reviewNotes,
      updatedAt: a.updatedAt.toISOString(),
    })),
  });
}

export default function MyApps() {
  const { apps } = useLoaderData<typeof loader>();
  return (
    <div className="stack-lg">
      <PageHeader
        title="My apps"
        action={
          <Link to="/portal/apps/new" className="button primary">
            Create app
          </Link>
        }
      >
        Create apps, test them on your sandbox, and submit them for review.
      </PageHeader>
      {apps.length === 0 ? (
        <EmptyState title="You have no apps yet">
          <p>Create your first app to get a client ID and secret, then test-install it on your sandbox business.</p>
          <p>
            <Link to="/portal/apps/new" className="button primary">
              Create your first app
            </Link>
          </p>
        </EmptyState>
      ) : (
        <DataTable
          rows={apps}
          rowKey={(a) => a.id}
          columns={[
            {
              head: "App",
              cell: (a) => (
                <>
                  <Link to={`/portal/apps/${a.id}`}>
                    <strong>{a.name}</strong>
                  </Link>
                  <div className="muted small">{a.slug}</div>
                </>
              ),
            },
            { head: "Category", cell: (a) => CATEGORY_LABELS[a.category as Category] ?? a.category },
            { head: "Version", cell: (a) => a.version },
            {
              head: "Status",
              cell: (a) => (
                <>
                  <AppStatusBadge status={a.status} updateInReview={a.updateInReview} />{" "}
                  {a.rejected ? <span className="badge danger">Changes requested</span> : null}
                </>
              ),
            },
            { head: "Last change", className: "muted small", cell: (a) => utcDateTime(a.updatedAt) },
          ]}
        />
      )}
    </div>
  );
}
