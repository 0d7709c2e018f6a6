import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { sandboxAddresses } from "~/platform/accounts/sandbox.server";
import { Sandbox } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute("/developer/sandbox", "DEVELOPER", {
  GET: operation({
    summary: "The developer's sandbox business and its addresses: storefront, admin, site builder",
    answer: { status: 200, schema: Sandbox },
    errors: [404],
    handler: async ({ context, user }) => sandboxAddresses(context.db, context.env, user.account),
  }),
});
