import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { activityCsvResponse, parseActivityFilter } from "~/platform/activity/activity-pages.server";
import { now } from "~/platform/core/clock.server";
import { dateFormatter } from "~/platform/core/dates";

/**
 * GET /admin/activity/export.csv?who&what&from&to: the Activity page's current filter as a CSV
 * download, for the owner and `staff` members of the signed-in business only. Streamed in batches.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { business } = await requireMerchant(request, context, "staff");
  const { filter } = parseActivityFilter(new URL(request.url).searchParams, business.timezone);
  const today = dateFormatter("en-US", business.timezone).localDay(now());
  return activityCsvResponse(context.db, { businessId: business.id }, filter, `activity-${business.slug}-${today}.csv`);
}
