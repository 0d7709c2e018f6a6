import { listed, operation, merchant, platformRoute } from "~/platform/platform-api/wrapper.server";
import { paged } from "~/platform/core/operations.server";
import { listBusinessInstallations, serializeInstallation } from "~/platform/installs/installs.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { MerchantInstallationList } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute("/merchant/installations", merchant("apps"), {
  GET: operation({
    summary: "The business's installations, uninstalled ones included (the compliance record)",
    ...paged(MerchantInstallationList, { limit: 50, max: 100 }),
    handler: listed(
      ({ context, user, page }) => listBusinessInstallations(context.db, requireBusiness(user).id, page),
      (row) => serializeInstallation(row.installation, row.appName),
    ),
  }),
});
