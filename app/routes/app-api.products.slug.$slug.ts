import { appApiRoute } from "~/platform/app-api/wrapper.server";
import { getProductBySlug } from "~/platform/catalog/queries.server";
import { serializeProduct } from "~/platform/catalog/serialize.server";

export const { loader, action } = appApiRoute({
  GET: { scope: "read_products", handler: async ({ context, caller, params }) => serializeProduct(await getProductBySlug(context.db, caller.business.id, params.slug!), caller.business.currency) },
});
