import { appApiRoute } from "~/platform/app-api/wrapper.server";
import { getProduct } from "~/platform/catalog/queries.server";
import { serializeProduct } from "~/platform/catalog/serialize.server";

export const { loader, action } = appApiRoute({
  GET: { scope: "read_products", handler: async ({ context, caller, params }) => serializeProduct(await getProduct(context.db, caller.business.id, params.id!), caller.business.currency) },
});
