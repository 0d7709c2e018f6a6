import { apiRoute, readJson } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { setEmbed } from "~/platform/extensions/merchant.server";

export const { loader, action } = apiRoute({
  PUT: async ({ request, context, params }) => {
    const business = requireBusiness(await requireApiAccount(request, context, "MERCHANT"));
    return setEmbed(context.db, business.id, params.installationId!, params.embedType!, await readJson(request));
  },
});
