import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { getDeveloperApp } from "~/platform/apps/apps.server";
import { requireDeveloperApp } from "~/platform/apps/guard.server";
import { logStreamResponse, parseSince } from "~/platform/devtools/logs.server";
import { toErrorResponse } from "~/platform/core/http.server";

const LogEventStream = z
  .string()
  .describe(
    'Server-Sent Events, for as long as the client holds the connection: `ready` ({appId, since}) once; then `log` for each App API request ({kind: "request", id, at, installationId, method, path, status, durationMs, apiVersion}), webhook delivery attempt ({kind: "delivery", id, at, installationId, deliveryId, event, attempt, success, status, durationMs, error, apiVersion}) and hook call ({kind: "hook", id, at, installationId, hookPoint, success, status, durationMs, error}) of the app\'s installations, as it happens (within about a second); `ping` ({at}) as a heartbeat. Each event\'s `data` is one line of JSON. Described here, not validated.',
  )
  .meta({ id: "LogEventStream" });

/**
 * The app's live logs (contract 19, decision 078): `storefront-apps logs --follow` with the
 * developer's JWT, and the portal's Logs page (EventSource) with its session cookie. Only the app's
 * members: another developer's app is 404.
 */
const route = platformRoute("/developer/apps/{appId}/logs/stream", "DEVELOPER", {
  GET: operation({
    appRole: "VIEWER",
    summary: "Stream the app's App API requests, webhook delivery attempts and hook calls as they happen",
    description:
      "Every installation of the app, production and test. `since` (an ISO time) first replays what happened from then, at most the last 15 minutes. The portal's Logs page reads the same stream with its session cookie.",
    params: z.object({ appId: z.string().describe("App id (another developer's app is 404)") }),
    query: z.object({
      since: z.string().optional().describe("Replay from this ISO 8601 time first (at most 15 minutes back)"),
    }),
    answer: {
      status: 200,
      schema: LogEventStream,
      mediaType: "text/event-stream",
      description: "An event stream (text/event-stream)",
    },
    errors: [400, 404],
    handler: async ({ request, context, user, params, query }) => {
      const app = await getDeveloperApp(context.db, user.account.id, params.appId);
      return logStreamResponse(request, context.db, app.id, parseSince(query.since ?? null));
    },
  }),
});

export const declared = route.declared;

export async function loader(args: LoaderFunctionArgs) {
  // the CLI and any JSON client: the developer's JWT (and the JSON 401 for a request with neither)
  if (args.request.headers.has("Authorization") || !args.request.headers.has("Cookie")) return route.loader(args);
  // the portal's EventSource: the session cookie of a member of the app
  const { app } = await requireDeveloperApp(args.request, args.context, args.params.appId, "VIEWER");
  try {
    const since = parseSince(new URL(args.request.url).searchParams.get("since"));
    return logStreamResponse(args.request, args.context.db, app.id, since);
  } catch (e) {
    return toErrorResponse(e);
  }
}
export const action = route.action;
