import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { oneBy } from "~/platform/core/operations.server";
import { getPage } from "~/platform/catalog/queries.server";
import { serializePage } from "~/platform/catalog/serialize.server";
import { Page } from "~/platform/shapes/api";

export const { loader, action, declared } = appApiRoute("/app-api/pages/{slug}", {
  GET: operation({
    summary: "One site page",
    scope: "read_pages",
    ...oneBy("slug", "Page slug", Page),
    handler: async ({ context, caller, params }) =>
      serializePage(await getPage(context.db, caller.business.id, params.slug)),
  }),
});
