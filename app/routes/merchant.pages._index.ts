import { listed, operation, merchant, platformRoute } from "~/platform/platform-api/wrapper.server";
import { paged } from "~/platform/core/operations.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { listPages } from "~/platform/catalog/queries.server";
import { serializePage } from "~/platform/catalog/serialize.server";
import { MerchantPageList } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute("/merchant/pages", merchant("pages"), {
  GET: operation({
    summary: "The business's site pages",
    ...paged(MerchantPageList, { limit: 50, max: 100 }),
    handler: listed(({ context, user, page }) => listPages(context.db, requireBusiness(user).id, page), serializePage),
  }),
});
