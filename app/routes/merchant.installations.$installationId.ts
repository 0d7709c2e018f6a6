import { apiRoute } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { uninstallForBusiness } from "~/platform/installs/installs.server";
import { requireBusiness } from "~/platform/accounts/business.server";

export const { loader, action } = apiRoute({
  DELETE: async ({ request, context, params }) => {
    const business = requireBusiness(await requireApiAccount(request, context, "MERCHANT"));
    await uninstallForBusiness(context.db, business.id, params.installationId!);
    return { uninstalled: true };
  },
});
