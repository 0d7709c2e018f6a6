import { apiRoute, readJson, ApiError } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { setAppSettings } from "~/platform/extensions/merchant.server";
import { getAppForReview } from "~/platform/apps/review.server";
import type { Manifest } from "~/platform/extensions/manifest-schema";
import { and, eq } from "drizzle-orm";
import { installations } from "../../db/schema";

export const { loader, action } = apiRoute({
  PUT: async ({ request, context, params }) => {
    const business = requireBusiness(await requireApiAccount(request, context, "MERCHANT"));
    const [installation] = await context.db.select().from(installations).where(and(eq(installations.id, params.installationId!), eq(installations.businessId, business.id)));
    if (!installation) throw new ApiError(404, "Installation not found");
    const app = await getAppForReview(context.db, installation.appId);
    return setAppSettings(context.db, business.id, installation.id, await readJson(request), (app.manifest as Manifest | null) ?? null);
  },
});
