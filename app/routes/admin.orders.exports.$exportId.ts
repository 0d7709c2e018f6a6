/**
 * GET /admin/orders/exports/<id>: one CSV export's progress as JSON, for the Orders page to poll
 * while the job prepares it (decision 081). Another business's export, or one that expired,
 * answers 404 with the contract's error body.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { errorResponse, json } from "~/platform/core/http.server";
import { getOrderExport } from "~/platform/orders/exports.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { business } = await requireMerchant(request, context, "orders");
  const found = await getOrderExport(context.db, business.id, params.exportId ?? "");
  if (!found) return errorResponse(404, "Export not found");
  return json(found, 200, { "Cache-Control": "private, no-store" });
}
