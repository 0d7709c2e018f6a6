import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { readPage } from "~/platform/catalog/admin-queries.server";
import { ACTION_LABELS } from "~/platform/activity/activity.server";
import { activityPageData } from "~/platform/activity/activity-pages.server";
import { ActivityLog } from "~/components/activity-log";

export const meta: MetaFunction = () => [{ title: "Activity · Admin" }];

/** Contract 18: the business's activity log, for the owner and members with `staff` (as GET /merchant/activity). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { business } = await requireMerchant(request, context, "staff");
  const url = new URL(request.url);
  const data = await activityPageData(context.db, { businessId: business.id }, url, business.timezone, readPage(url));
  return json({ ...data, actions: ACTIONS() });
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
