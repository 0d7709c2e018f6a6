import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { paginated } from "~/platform/core/http.server";
import { listPages } from "~/platform/catalog/queries.server";
import { serializePage } from "~/platform/catalog/serialize.server";
import { PageList } from "~/platform/app-api/schemas";

export const { loader, action, declared } = appApiRoute("/app-api/pages", {
  GET: operation({
    summary: "Site pages",
    scope: "read_pages",
    page: { limit: 50, max: 100 },
    answer: { status: 200, schema: PageList },
    errors: [400],
    handler: async ({ context, caller, page }) => {
      const { rows, total } = await listPages(context.db, caller.business.id, page);
      return paginated(rows.map(serializePage), total, page);
    },
  }),
});
