import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getMarketplaceApp } from "~/platform/apps/apps.server";
import { randomToken } from "~/platform/core/ids.server";

/**
 * The marketplace's Install button: starts the app's OAuth flow for the signed-in merchant (the
 * consent screen signs a visitor in first). The state marks a marketplace-initiated install.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const found = await getMarketplaceApp(context.db, params.slug!);
  if (!found) throw new Response("App not found", { status: 404 });
  const query = new URLSearchParams({
    response_type: "code",
    client_id: found.app.clientId,
    redirect_uri: found.app.redirectUrl,
    state: `marketplace.${randomToken(12)}`,
  });
  return redirect(`/oauth/authorize?${query}`);
}
