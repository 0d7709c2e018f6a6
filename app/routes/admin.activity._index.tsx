import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { readPage } from "~/platform/catalog/admin-queries.server";
import { ACTION_LABELS } from "~/platform/activity/activity.server";
import { activityPage, parseActivityFilter, recentActors } from "~/platform/activity/activity-pages.server";
import { ActivityLog } from "~/components/activity-log";

export const meta: MetaFunction = () => [{ title: "Activity · Admin" }];

/** Contract 18: the business's activity log, for the owner and members with `staff` (as GET /merchant/activity). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { business } = await requireMerchant(request, context, "staff");
  const url = new URL(request.url);
  const { filter, form, notices } = parseActivityFilter(url.searchParams, business.timezone);
  const page = readPage(url);
  const scope = { businessId: business.id };
  const { rows, total, pages } = await activityPage(context.db, scope, filter, page);
  return json({
    form,
    notices,
    rows,
    total,
    page,
    pages,
    actions: ACTIONS(),
    actors: await recentActors(context.db, scope),
  });
}

// server-only: ACTION_LABELS lives in a .server module, so the list travels with the loader's data
const ACTIONS = () => Object.entries(ACTION_LABELS).map(([value, label]) => ({ value, label }));

export default function AdminActivity() {
  const data = useLoaderData<typeof loader>();
  return (
    <ActivityLog
      {...data}
      path="/admin/activity"
      csvPath="/admin/activity/export.csv"
      title="Activity"
      lead="Who did what in your business: sign-ins, installs, charges, changes of settings, staff and security."
    />
  );
}
