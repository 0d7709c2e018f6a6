import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { oneBy } from "~/platform/core/operations.server";
import { getProduct } from "~/platform/catalog/queries.server";
import { serializeProduct } from "~/platform/catalog/serialize.server";
import { Product } from "~/platform/shapes/api";

export const { loader, action, declared } = appApiRoute("/app-api/products/{id}", {
  GET: operation({
    summary: "One product",
    scope: "read_products",
    ...oneBy("id", "Product id", Product),
    handler: async ({ context, caller, params }) =>
      serializeProduct(await getProduct(context.db, caller.business.id, params.id), caller.business.currency),
  }),
});
