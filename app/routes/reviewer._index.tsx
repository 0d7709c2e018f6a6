import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { asc, eq, or } from "drizzle-orm";
import { apps } from "../../db/schema";
import { requireReviewer } from "~/platform/accounts/guards.server";
import { EmptyState } from "~/components/area-layout";
import { DataTable, PageHeader, SuccessNotice } from "~/components/page-parts";

export const meta: MetaFunction = () => [{ title: "Review queue · Review console" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireReviewer(request, context);
  const queue = await context.db
    .select({
      id: apps.id,
      name: apps.name,
      category: apps.category,
      version: apps.version,
      submittedAt: apps.submittedAt,
      updateInReview: apps.updateInReview,
    })
    .from(apps)
    .where(or(eq(apps.status, "PENDING_REVIEW"), eq(apps.updateInReview, true)))
    .orderBy(asc(apps.submittedAt));
  return json({ queue });
}

export default function ReviewQueue() {
  const { queue } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const done = params.get("done");
  return (
    <div className="stack-lg">
      <PageHeader title="Review queue" className="page-head">
        Apps waiting for review, oldest first.
      </PageHeader>
      <SuccessNotice show={done === "approved"}>App approved and published.</SuccessNotice>
      <SuccessNotice show={done === "rejected"}>App sent back to the developer with your notes.</SuccessNotice>
      {queue.length === 0 ? (
        <EmptyState title="Nothing to review">New submissions appear here as developers submit them.</EmptyState>
      ) : (
        <DataTable
          rows={queue}
          rowKey={(a) => a.id}
          columns={[
            {
              head: "App",
              cell: (a) => (
                <>
                  <Link to={`/reviewer/apps/${a.id}`}>{a.name}</Link>{" "}
                  {a.updateInReview ? <span className="badge">update</span> : null}
                </>
              ),
            },
            { head: "Category", cell: (a) => a.category },
            { head: "Version", cell: (a) => a.version },
            {
              head: "Submitted",
              cell: (a) => (a.submittedAt ? new Date(a.submittedAt).toLocaleString("en-US", { timeZone: "UTC" }) : "—"),
            },
          ]}
        />
      )}
    </div>
  );
}
