import { replicaOf } from "~/platform/core/context";
import { appApiRoute, listed, operation } from "~/platform/app-api/wrapper.server";
import { paged } from "~/platform/core/operations.server";
import { listProducts } from "~/platform/catalog/queries.server";
import { serializeProduct } from "~/platform/catalog/serialize.server";
import { ProductList } from "~/platform/shapes/api";

export const { loader, action, declared } = appApiRoute("/app-api/products", {
  GET: operation({
    summary: "List products, newest first",
    scope: "read_products",
    ...paged(ProductList, { limit: 50, max: 100 }),
    handler: listed(
      ({ context, caller, page }) => listProducts(replicaOf(context), caller.business.id, page),
      (product, { caller }) => serializeProduct(product, caller.business.currency),
    ),
  }),
});
