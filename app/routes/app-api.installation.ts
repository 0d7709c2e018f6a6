import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { InstallationInfo } from "~/platform/shapes/api";

/** The calling installation itself, with the settings the merchant gave the app (no scope needed). */
export const { loader, action, declared } = appApiRoute("/app-api/installation", {
  GET: operation({
    summary: "The calling installation: scopes, re-consent state and the merchant's app settings",
    answer: { status: 200, schema: InstallationInfo },
    errors: [],
    handler: async ({ caller }) => ({
      installationId: caller.installation.id,
      appId: caller.app.id,
      businessId: caller.business.id,
      scopes: caller.installation.scopes,
      needsReConsent: caller.installation.needsReConsent,
      isTestInstall: caller.installation.isTestInstall,
      settings: caller.installation.settings,
      installedAt: caller.installation.installedAt.toISOString(),
    }),
  }),
});
