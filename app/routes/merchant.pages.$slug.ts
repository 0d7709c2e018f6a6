import { operation, merchant, platformRoute } from "~/platform/platform-api/wrapper.server";
import { oneBy } from "~/platform/core/operations.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { getPage } from "~/platform/catalog/queries.server";
import { serializePage } from "~/platform/catalog/serialize.server";
import { pageInputSchema, savePage } from "~/platform/extensions/merchant.server";
import { Page } from "~/platform/shapes/api";

const one = oneBy("slug", "Page slug: lowercase letters, digits and hyphens", Page);
const PageInput = pageInputSchema.meta({ id: "PageInput" });

export const { loader, action, declared } = platformRoute("/merchant/pages/{slug}", merchant("pages"), {
  GET: operation({
    summary: "One site page",
    ...one,
    handler: async ({ context, user, params }) =>
      serializePage(await getPage(context.db, requireBusiness(user).id, params.slug)),
  }),
  PUT: operation({
    summary: "Create or replace a site page; an app block must name an active block of an installed app",
    ...one,
    body: PageInput,
    errors: [400],
    handler: async ({ context, user, params, body }) =>
      serializePage(await savePage(context.db, requireBusiness(user).id, params.slug, body)),
  }),
});
