import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireDeveloperApp } from "~/platform/apps/guard.server";
import { activityCsvResponse, parseActivityFilter } from "~/platform/activity/activity-pages.server";
import { now } from "~/platform/core/clock.server";

/** GET /portal/apps/<id>/activity.csv?who&what&from&to: the app's Activity page's filter as a CSV, for its members. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { app } = await requireDeveloperApp(request, context, params.appId, "VIEWER");
  const { filter } = parseActivityFilter(new URL(request.url).searchParams, "UTC");
  const today = now().toISOString().slice(0, 10);
  return activityCsvResponse(context.db, { appId: app.id }, filter, `activity-${app.slug}-${today}.csv`);
}
