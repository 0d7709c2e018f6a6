import { operation, merchant, platformRoute } from "~/platform/platform-api/wrapper.server";
import { clientAddress } from "~/platform/core/client-address.server";
import { oneBy } from "~/platform/core/operations.server";
import { approveAddedScopes, serializeInstallation } from "~/platform/installs/installs.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { getAppForReview } from "~/platform/apps/review.server";
import { MerchantInstallation } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute(
  "/merchant/installations/{installationId}/consent",
  merchant("apps"),
  {
    POST: operation({
      summary: "Approve the scopes an approved update added (clears needsReConsent)",
      ...oneBy("installationId", "Installation id", MerchantInstallation, { errors: [404, 409] }),
      handler: async ({ context, user, params, request }) => {
        const installation = await approveAddedScopes(context.db, requireBusiness(user).id, params.installationId, {
          account: user.account,
          ip: clientAddress(request),
        });
        const app = await getAppForReview(context.db, installation.appId);
        return serializeInstallation(installation, app.name);
      },
    }),
  },
);
