/**
 * The merchant routes' "this business's installation or 404": the installation row, looked up by
 * its id and the business together (tenant isolation: another business's installation is 404,
 * like an unknown one). Shared by merchant.installations.$installationId.review.ts and .settings.ts.
 */
import { and, eq } from "drizzle-orm";
import { ApiError } from "~/platform/core/http.server";
import type { Database } from "../../db/client";
import { installations } from "../../db/schema";

export async function businessInstallation(db: Database, businessId: string, installationId: string) {
  const [installation] = await db
    .select()
    .from(installations)
    .where(and(eq(installations.id, installationId), eq(installations.businessId, businessId)));
  if (!installation) throw new ApiError(404, "Installation not found");
  return installation;
}
