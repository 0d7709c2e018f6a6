import { z } from "zod";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { getDeveloperApp } from "~/platform/apps/apps.server";
import { openListener } from "~/platform/devtools/relay.server";

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
      const encoder = new TextEncoder();
      let close: (() => Promise<void>) | null = null;
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          const send = (event: string, data: unknown) => {
            try {
              controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
            } catch {
              /* the stream is closed */
            }
          };
          close = await openListener(context.db, app, app.accountId, send);
          request.signal.addEventListener("abort", () => {
            void close?.();
            try {
              controller.close();
            } catch {
              /* already closed */
            }
          });
        },
        cancel() {
          void close?.();
        },
      });
      return new Response(stream, {
        headers: {
          "Content-Type": "text/event-stream; charset=utf-8",
          "Cache-Control": "no-store, no-transform",
          Connection: "keep-alive",
          "X-Accel-Buffering": "no",
        },
      });
    },
  }),
});
