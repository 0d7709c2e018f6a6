import { apiRoute, paginated, parsePagination } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { listPages } from "~/platform/catalog/queries.server";
import { serializePage } from "~/platform/catalog/serialize.server";

export const { loader, action } = apiRoute({
  GET: async ({ request, context }) => {
    const business = requireBusiness(await requireApiAccount(request, context, "MERCHANT"));
    const page = parsePagination(new URL(request.url));
    const { rows, total } = await listPages(context.db, business.id, page);
    return paginated(rows.map(serializePage), total, page);
  },
});
