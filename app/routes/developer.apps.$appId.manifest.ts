import { z } from "zod";
import { clientAddress } from "~/platform/core/client-address.server";
import { ApiError } from "~/platform/core/http.server";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { putManifest } from "~/platform/apps/manifest.server";
import { getDeveloperApp } from "~/platform/apps/apps.server";
import { recordRelease } from "~/platform/apps/releases.server";
import { ManifestDocument, ManifestSaved } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute("/developer/apps/{appId}/manifest", "DEVELOPER", {
  PUT: operation({
    appRole: "DEVELOPER",
    summary: "Replace the app's manifest and sync its extensions (or, with dryRun=true, show what would change)",
    params: z.object({ appId: z.string().describe("App id") }),
    query: z.object({ dryRun: z.string().optional().describe("`true`: validate and plan only, change nothing") }),
    body: ManifestDocument,
    // the manifest's own words for a body that is not an object (as the portal's editor shows them)
    bodyPrecheck: (raw) => {
      if (typeof raw !== "object" || raw === null || Array.isArray(raw))
        throw new ApiError(400, "manifest: must be a JSON object");
    },
    answer: { status: 200, schema: ManifestSaved },
    errors: [400, 404, 409, 413],
    handler: async ({ context, user, params, query, body, request }) => {
      const dryRun = query.dryRun === "true";
      const before = dryRun ? null : await getDeveloperApp(context.db, user.account.id, params.appId);
      const saved = await putManifest(context.db, user.account.id, params.appId, body, {
        dryRun,
        by: { account: user.account, ip: clientAddress(request) },
      });
      // an edit of the configuration is a release too (contract 19)
      if (before) await recordRelease(context.db, before.id, user.account.id, { source: "api", before });
      return saved;
    },
  }),
});
