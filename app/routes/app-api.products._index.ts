import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { paginated } from "~/platform/core/http.server";
import { listProducts } from "~/platform/catalog/queries.server";
import { serializeProduct } from "~/platform/catalog/serialize.server";
import { ProductList } from "~/platform/app-api/schemas";

export const { loader, action, declared } = appApiRoute("/app-api/products", {
  GET: operation({
    summary: "List products, newest first",
    scope: "read_products",
    page: { limit: 50, max: 100 },
    answer: { status: 200, schema: ProductList },
    errors: [400],
    handler: async ({ context, caller, page }) => {
      const { rows, total } = await listProducts(context.db, caller.business.id, page);
      return paginated(
        rows.map((p) => serializeProduct(p, caller.business.currency)),
        total,
        page,
      );
    },
  }),
});
