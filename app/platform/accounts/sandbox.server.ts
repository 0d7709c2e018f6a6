/**
 * A developer's sandbox business and where to see it (contract 14, decision 036): its storefront on
 * the storefront's origin, its admin and site builder on the platform's. Read by the portal and by
 * `GET /developer/sandbox`, which `storefront-apps dev` prints.
 */
import type { Account } from "../../../db/schema";
import type { Db } from "../../../db/client";
import type { Env } from "../core/env.server";
import { ApiError } from "../core/http.server";
import { getBusiness } from "./accounts.server";

export async function sandboxAddresses(db: Db, env: Env, account: Account) {
  const business = account.businessId ? await getBusiness(db, account.businessId) : undefined;
  if (!business || !business.isSandbox) throw new ApiError(404, "This account has no sandbox business");
  const platform = env.publicUrl.replace(/\/+$/, "");
  return {
    businessId: business.id,
    name: business.name,
    slug: business.slug,
    storefrontUrl: `${env.storefrontUrl.replace(/\/+$/, "")}/s/${business.slug}`,
    adminUrl: `${platform}/admin`,
    builderUrl: `${platform}/admin/pages/home`,
  };
}
