/**
 * GET /admin/orders/exports/<id>/download: a READY export's CSV, streamed from its chunks one at a
 * time (bounded memory whatever its size; decision 081), for the signed-in member with "orders" of
 * the business that asked for it. Another business's export, one not ready or expired: 404.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { errorResponse } from "~/platform/core/http.server";
import { dateFormatter } from "~/platform/core/dates";
import { openOrderExport } from "~/platform/orders/exports.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { business } = await requireMerchant(request, context, "orders");
  const file = await openOrderExport(context.db, business.id, params.exportId ?? "");
  if (!file) return errorResponse(404, "Export not found, not ready yet or expired");
  // named by the day it was asked for, in the export's time zone, as the list's download was
  const day = dateFormatter("en-US", file.export.timeZone).localDay(new Date(file.export.createdAt));
  const filename = `orders-${business.slug.replace(/[^a-z0-9-]/g, "")}-${day}.csv`;
  return new Response(file.body, {
    status: 200,
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Length": String(file.bytes),
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
