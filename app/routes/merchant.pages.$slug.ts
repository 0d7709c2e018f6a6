import { z } from "zod";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { getPage } from "~/platform/catalog/queries.server";
import { serializePage } from "~/platform/catalog/serialize.server";
import { pageInputSchema, savePage } from "~/platform/extensions/merchant.server";
import { Page } from "~/platform/app-api/schemas";

const params = z.object({ slug: z.string().describe("Page slug: lowercase letters, digits and hyphens") });
const PageInput = pageInputSchema.meta({ id: "PageInput" });

export const { loader, action, declared } = platformRoute("/merchant/pages/{slug}", "MERCHANT", {
  GET: operation({
    summary: "One site page",
    params,
    answer: { status: 200, schema: Page },
    errors: [404],
    handler: async ({ context, user, params }) =>
      serializePage(await getPage(context.db, requireBusiness(user).id, params.slug)),
  }),
  PUT: operation({
    summary: "Create or replace a site page; an app block must name an active block of an installed app",
    params,
    body: PageInput,
    answer: { status: 200, schema: Page },
    errors: [400],
    handler: async ({ context, user, params, body }) =>
      serializePage(await savePage(context.db, requireBusiness(user).id, params.slug, body)),
  }),
});
