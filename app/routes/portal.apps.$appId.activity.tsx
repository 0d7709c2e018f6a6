import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireDeveloperApp } from "~/platform/apps/guard.server";
import { readPage } from "~/platform/catalog/admin-queries.server";
import { ACTION_LABELS } from "~/platform/activity/activity.server";
import { activityPageData } from "~/platform/activity/activity-pages.server";
import { ActivityLog } from "~/components/activity-log";
import { BackLink } from "~/components/page-parts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Activity · ${data?.app.name ?? "App"}` }];

/** Contract 18: the app's activity log, for its members (as GET /developer/apps/<id>/activity); times in UTC. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { app } = await requireDeveloperApp(request, context, params.appId, "VIEWER");
  const url = new URL(request.url);
  const data = await activityPageData(context.db, { appId: app.id }, url, "UTC", readPage(url));
  return json({ app: { id: app.id, name: app.name }, ...data, actions: APP_ACTIONS() });
}

/** The actions an app's log holds (its members, secrets, webhooks, manifest, review, installs, charges). */
// server-only: ACTION_LABELS lives in a .server module, so the list travels with the loader's data
const APP_ACTIONS = () =>
  Object.entries(ACTION_LABELS)
    .filter(([value]) => /^(app_member|app|webhook|manifest|installation|charge)\./.test(value))
    .map(([value, label]) => ({ value, label }));

export default function AppActivity() {
  const { app, ...data } = useLoaderData<typeof loader>();
  return (
    <ActivityLog
      {...data}
      header={<BackLink to={`/portal/apps/${app.id}`} label={app.name} />}
      path={`/portal/apps/${app.id}/activity`}
      csvPath={`/portal/apps/${app.id}/activity.csv`}
      title="Activity"
      lead={`Who did what to ${app.name}: members, secrets, webhooks, the manifest, review, installs and charges.`}
    />
  );
}
