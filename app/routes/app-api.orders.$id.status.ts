import { appApiRoute } from "~/platform/app-api/wrapper.server";
import { ApiError, readJson } from "~/platform/core/http.server";
import { getOrderRow } from "~/platform/catalog/queries.server";
import { moveOrderStatus, parseOrderStatus } from "~/platform/orders/status.server";

export const { loader, action } = appApiRoute({
  PATCH: {
    scope: "write_orders",
    handler: async ({ request, context, caller, params }) => {
      await getOrderRow(context.db, caller.business.id, params.id!);
      const body = await readJson(request);
      if (typeof body !== "object" || body === null || Array.isArray(body)) throw new ApiError(400, "body: must be an object with status");
      const status = parseOrderStatus((body as { status?: unknown }).status);
      return moveOrderStatus(context.db, caller.business.id, params.id!, status, `app:${caller.app.id}`);
    },
  },
});
