import { appApiRoute } from "~/platform/app-api/wrapper.server";
import { paginated, parsePagination } from "~/platform/core/http.server";
import { listPages } from "~/platform/catalog/queries.server";
import { serializePage } from "~/platform/catalog/serialize.server";

export const { loader, action } = appApiRoute({
  GET: {
    scope: "read_pages",
    handler: async ({ request, context, caller }) => {
      const page = parsePagination(new URL(request.url));
      const { rows, total } = await listPages(context.db, caller.business.id, page);
      return paginated(rows.map(serializePage), total, page);
    },
  },
});
