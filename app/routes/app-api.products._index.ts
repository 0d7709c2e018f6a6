import { appApiRoute } from "~/platform/app-api/wrapper.server";
import { paginated, parsePagination } from "~/platform/core/http.server";
import { listProducts } from "~/platform/catalog/queries.server";
import { serializeProduct } from "~/platform/catalog/serialize.server";

export const { loader, action } = appApiRoute({
  GET: {
    scope: "read_products",
    handler: async ({ request, context, caller }) => {
      const page = parsePagination(new URL(request.url), { limit: 50, max: 100 });
      const { rows, total } = await listProducts(context.db, caller.business.id, page);
      return paginated(rows.map((p) => serializeProduct(p, caller.business.currency)), total, page);
    },
  },
});
