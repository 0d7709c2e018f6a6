import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { oneBy } from "~/platform/core/operations.server";
import { getProductBySlug } from "~/platform/catalog/queries.server";
import { serializeProduct } from "~/platform/catalog/serialize.server";
import { Product } from "~/platform/shapes/api";

export const { loader, action, declared } = appApiRoute("/app-api/products/slug/{slug}", {
  GET: operation({
    summary: "One product by slug",
    scope: "read_products",
    ...oneBy("slug", "Product slug", Product),
    handler: async ({ context, caller, params }) =>
      serializeProduct(await getProductBySlug(context.db, caller.business.id, params.slug), caller.business.currency),
  }),
});
