import { apiRoute } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { approveAddedScopes, serializeInstallation } from "~/platform/installs/installs.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { getAppForReview } from "~/platform/apps/review.server";

export const { loader, action } = apiRoute({
  POST: async ({ request, context, params }) => {
    const business = requireBusiness(await requireApiAccount(request, context, "MERCHANT"));
    const installation = await approveAddedScopes(context.db, business.id, params.installationId!);
    const app = await getAppForReview(context.db, installation.appId);
    return serializeInstallation(installation, app.name);
  },
});
