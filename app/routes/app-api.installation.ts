import { appApiRoute } from "~/platform/app-api/wrapper.server";

/** The calling installation itself, with the settings the merchant gave the app (no scope needed). */
export const { loader, action } = appApiRoute({
  GET: {
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
  },
});
