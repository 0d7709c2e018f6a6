import { operation, merchant, platformRoute } from "~/platform/platform-api/wrapper.server";
import { clientAddress } from "~/platform/core/client-address.server";
import { oneBy } from "~/platform/core/operations.server";
import { uninstallForBusiness } from "~/platform/installs/installs.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { Uninstalled } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute(
  "/merchant/installations/{installationId}",
  merchant("apps"),
  {
    DELETE: operation({
      summary: "Uninstall: token revoked, webhooks off, blocks and embeds gone, business.data_erasure due in 48 hours",
      ...oneBy("installationId", "Installation id", Uninstalled),
      handler: async ({ context, user, params, request }) => {
        await uninstallForBusiness(context.db, requireBusiness(user).id, params.installationId, {
          account: user.account,
          ip: clientAddress(request),
        });
        return { uninstalled: true };
      },
    }),
  },
);
