import { appApiRoute } from "~/platform/app-api/wrapper.server";
import { getPage } from "~/platform/catalog/queries.server";
import { serializePage } from "~/platform/catalog/serialize.server";

export const { loader, action } = appApiRoute({
  GET: { scope: "read_pages", handler: async ({ context, caller, params }) => serializePage(await getPage(context.db, caller.business.id, params.slug!)) },
});
