import { apiRoute, readJson } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { getPage } from "~/platform/catalog/queries.server";
import { serializePage } from "~/platform/catalog/serialize.server";
import { savePage } from "~/platform/extensions/merchant.server";

export const { loader, action } = apiRoute({
  GET: async ({ request, context, params }) => {
    const business = requireBusiness(await requireApiAccount(request, context, "MERCHANT"));
    return serializePage(await getPage(context.db, business.id, params.slug!));
  },
  PUT: async ({ request, context, params }) => {
    const business = requireBusiness(await requireApiAccount(request, context, "MERCHANT"));
    return serializePage(await savePage(context.db, business.id, params.slug!, await readJson(request)));
  },
});
