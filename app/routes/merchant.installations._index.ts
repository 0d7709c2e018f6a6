import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { paginated } from "~/platform/core/http.server";
import { listBusinessInstallations, serializeInstallation } from "~/platform/installs/installs.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { MerchantInstallationList } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute("/merchant/installations", "MERCHANT", {
  GET: operation({
    summary: "The business's installations, uninstalled ones included (the compliance record)",
    page: { limit: 50, max: 100 },
    answer: { status: 200, schema: MerchantInstallationList },
    errors: [400],
    handler: async ({ context, user, page }) => {
      const { rows, total } = await listBusinessInstallations(context.db, requireBusiness(user).id, page);
      return paginated(
        rows.map((r) => serializeInstallation(r.installation, r.appName)),
        total,
        page,
      );
    },
  }),
});
