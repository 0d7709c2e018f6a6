import { apiRoute, json, parseWith, readJson } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { ApiError } from "~/platform/core/http.server";
import { deleteReview, getOwnReview, putReview, reviewSchema } from "~/platform/apps/app-reviews.server";
import { and, eq } from "drizzle-orm";
import { installations } from "../../db/schema";

export const { loader, action } = apiRoute({
  GET: async ({ request, context, params }) => {
    const business = requireBusiness(await requireApiAccount(request, context, "MERCHANT"));
    const [installation] = await context.db.select({ appId: installations.appId }).from(installations).where(and(eq(installations.id, params.installationId!), eq(installations.businessId, business.id)));
    if (!installation) throw new ApiError(404, "Installation not found");
    const review = await getOwnReview(context.db, business.id, installation.appId);
    if (!review) throw new ApiError(404, "Review not found");
    return review;
  },
  PUT: async ({ request, context, params }) => {
    const business = requireBusiness(await requireApiAccount(request, context, "MERCHANT"));
    const input = parseWith(reviewSchema, await readJson(request));
    return putReview(context.db, business.id, params.installationId!, input);
  },
  DELETE: async ({ request, context, params }) => {
    const business = requireBusiness(await requireApiAccount(request, context, "MERCHANT"));
    await deleteReview(context.db, business.id, params.installationId!);
    return json(undefined, 204);
  },
});
