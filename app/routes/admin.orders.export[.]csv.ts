import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { isValidTimeZone } from "~/platform/accounts/business-settings.server";
import { parseOrderFilter } from "~/platform/catalog/admin-queries.server";
import { ordersCsv } from "~/platform/orders/orders-csv.server";
import { now } from "~/platform/core/clock.server";
import { dateFormatter } from "~/platform/core/dates";

/**
 * GET /admin/orders/export.csv?q&status&from&to&sort: the orders list's current filter as a CSV
 * download, for the signed-in merchant's own business only. Streamed in batches.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { business } = await requireMerchant(request, context, "orders");
  const timeZone = isValidTimeZone(business.timezone) ? business.timezone : "UTC";
  const { filter } = parseOrderFilter(new URL(request.url).searchParams, timeZone);
  const chunks = ordersCsv(context.db, business.id, filter);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  const today = dateFormatter("en-US", timeZone).localDay(now());
  const filename = `orders-${business.slug.replace(/[^a-z0-9-]/g, "")}-${today}.csv`;
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
