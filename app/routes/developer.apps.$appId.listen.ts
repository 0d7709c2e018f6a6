import { z } from "zod";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { getDeveloperApp } from "~/platform/apps/apps.server";
import { openListener } from "~/platform/devtools/relay.server";
import { eventStreamResponse } from "~/platform/core/http.server";

const EventStream = z
  .string()
  .describe(
    "Server-Sent Events, for as long as the client holds the connection: `ready` ({appId, name, installation: {installationId, isTestInstall} | null, the app's installation on your sandbox}) once, then `call` ({callId, kind, path, headers, body}) for each webhook delivery or hook call of the app's test installations and of its installation on your sandbox (also once review approval made it a production installation), to be answered at POST /developer/apps/{appId}/listen/{callId}/answer; `installation` ({installation, message}) when the installation on your sandbox changed (approved: now a production installation, still relayed; uninstalled; installed again), `message` saying so in a sentence; and `ping` ({at}) as a heartbeat. `headers` are every header the platform sends with the call (Api-Version included); forward them all. Each event's `data` is one line of JSON. Described here, not validated.",
  )
  .meta({ id: "ListenEventStream" });

/**
 * `storefront-apps listen` (decision 023): a Server-Sent Events stream of the webhook deliveries
 * and hook calls of the app's test installation, for as long as the developer's CLI holds it.
 */
export const { loader, action, declared } = platformRoute("/developer/apps/{appId}/listen", "DEVELOPER", {
  GET: operation({
    appRole: "DEVELOPER",
    summary: "Stream the test installation's webhook deliveries and hook calls (storefront-apps listen)",
    params: z.object({ appId: z.string().describe("App id") }),
    answer: {
      status: 200,
      schema: EventStream,
      mediaType: "text/event-stream",
      description: "An event stream (text/event-stream)",
    },
    errors: [404],
    handler: async ({ request, context, user, params }) => {
      const app = { ...(await getDeveloperApp(context.db, user.account.id, params.appId)), accountId: user.account.id };
      return eventStreamResponse(request, (send) => openListener(context.db, app, app.accountId, send));
    },
  }),
});
