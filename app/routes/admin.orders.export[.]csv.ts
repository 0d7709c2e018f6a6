import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { isValidTimeZone } from "~/platform/accounts/business-settings.server";
import { exportQuery } from "~/platform/orders/exports.server";

/**
 * GET /admin/orders/export.csv?q&status&from&to&sort: the list's download before exports became
 * background jobs (decision 081). A link to it (a bookmark, an older page) now lands on the Orders
 * page with the same filter, where Export prepares the file; a GET never queues work (a link on
 * another site must not start exports).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { business } = await requireMerchant(request, context, "orders");
  const timeZone = isValidTimeZone(business.timezone) ? business.timezone : "UTC";
  const query = exportQuery(new URL(request.url).searchParams, timeZone);
  return redirect(`/admin/orders${query ? `?${query}` : ""}`, 303);
}
