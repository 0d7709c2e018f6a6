import { replicaOf } from "~/platform/core/context";
import { appApiRoute, listed, operation } from "~/platform/app-api/wrapper.server";
import { paged } from "~/platform/core/operations.server";
import { listPages } from "~/platform/catalog/queries.server";
import { serializePage } from "~/platform/catalog/serialize.server";
import { PageList } from "~/platform/shapes/api";

export const { loader, action, declared } = appApiRoute("/app-api/pages", {
  GET: operation({
    summary: "Site pages",
    scope: "read_pages",
    ...paged(PageList, { limit: 50, max: 100 }),
    handler: listed(
      ({ context, caller, page }) => listPages(replicaOf(context), caller.business.id, page),
      serializePage,
    ),
  }),
});
