import { z } from "zod";
import { operation, merchant, platformRoute } from "~/platform/platform-api/wrapper.server";
import { oneBy } from "~/platform/core/operations.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { setAppSettings } from "~/platform/extensions/merchant.server";
import { getAppForReview } from "~/platform/apps/review.server";
import type { Manifest } from "~/platform/shapes/manifest";
import { AppSettingsState } from "~/platform/platform-api/schemas";
import { getBusinessInstallation } from "~/platform/installs/installs.server";

const AppSettings = z
  .record(z.string(), z.unknown())
  .describe("The app's settings, validated against its manifest's settingsSchema")
  .meta({ id: "AppSettings" });

export const { loader, action, declared } = platformRoute(
  "/merchant/installations/{installationId}/settings",
  merchant("apps"),
  {
    PUT: operation({
      summary: "Save the merchant's settings of an installed app",
      ...oneBy("installationId", "Installation id", AppSettingsState, { errors: [400, 404] }),
      body: AppSettings,
      handler: async ({ context, user, params, body }) => {
        const business = requireBusiness(user);
        const installation = await getBusinessInstallation(context.db, business.id, params.installationId);
        const app = await getAppForReview(context.db, installation.appId);
        return setAppSettings(
          context.db,
          business.id,
          installation.id,
          body,
          (app.manifest as Manifest | null) ?? null,
        );
      },
    }),
  },
);
