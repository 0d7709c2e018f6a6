import { apiRoute, readJson } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { putManifest } from "~/platform/extensions/manifest.server";

export const { loader, action } = apiRoute({
  PUT: async ({ request, context, params }) => {
    const { account } = await requireApiAccount(request, context, "DEVELOPER");
    const dryRun = new URL(request.url).searchParams.get("dryRun") === "true";
    return putManifest(context.db, account.id, params.appId!, await readJson(request), { dryRun });
  },
});
