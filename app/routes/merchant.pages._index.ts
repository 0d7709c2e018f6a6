import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { paginated } from "~/platform/core/http.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { listPages } from "~/platform/catalog/queries.server";
import { serializePage } from "~/platform/catalog/serialize.server";
import { PageList } from "~/platform/app-api/schemas";

export const { loader, action, declared } = platformRoute("/merchant/pages", "MERCHANT", {
  GET: operation({
    summary: "The business's site pages",
    page: { limit: 50, max: 100 },
    answer: { status: 200, schema: PageList },
    errors: [400],
    handler: async ({ context, user, page }) => {
      const { rows, total } = await listPages(context.db, requireBusiness(user).id, page);
      return paginated(rows.map(serializePage), total, page);
    },
  }),
});
