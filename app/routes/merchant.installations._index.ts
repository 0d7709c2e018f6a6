import { apiRoute, paginated, parsePagination } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { listBusinessInstallations, serializeInstallation } from "~/platform/installs/installs.server";
import { requireBusiness } from "~/platform/accounts/business.server";

export const { loader, action } = apiRoute({
  GET: async ({ request, context }) => {
    const business = requireBusiness(await requireApiAccount(request, context, "MERCHANT"));
    const page = parsePagination(new URL(request.url));
    const { rows, total } = await listBusinessInstallations(context.db, business.id, page);
    return paginated(rows.map((r) => serializeInstallation(r.installation, r.appName)), total, page);
  },
});
