import { apiRoute, json } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { triggerSample } from "~/platform/devtools/trigger.server";

/** `storefront-apps trigger <event>`: a sample event on the developer's sandbox business (202). */
export const { loader, action } = apiRoute({
  POST: async ({ request, context, params }) => {
    const { account } = await requireApiAccount(request, context, "DEVELOPER");
    const body = (await request.json().catch(() => null)) as { event?: unknown } | null;
    return json(await triggerSample(context.db, account, params.appId!, body?.event), 202);
  },
});
