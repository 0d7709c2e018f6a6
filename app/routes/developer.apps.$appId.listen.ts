import type { LoaderFunctionArgs } from "@remix-run/node";
import { errorResponse, ApiError } from "~/platform/core/http.server";
import { requireApiAccount } from "~/platform/accounts/session.server";
import { getDeveloperApp } from "~/platform/apps/apps.server";
import { openListener } from "~/platform/devtools/relay.server";

/**
 * `storefront-apps listen` (decision 023): a Server-Sent Events stream of the webhook deliveries
 * and hook calls of the app's test installation, for as long as the developer's CLI holds it.
 */
export const loader = async ({ request, context, params }: LoaderFunctionArgs) => {
  if (request.method !== "GET") return errorResponse(405, "Method not allowed; use GET", { Allow: "GET" });
  let app;
  try {
    const { account } = await requireApiAccount(request, context, "DEVELOPER");
    app = { ...(await getDeveloperApp(context.db, account.id, params.appId!)), accountId: account.id };
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error.status, error.message);
    if (error instanceof Response) return error;
    throw error;
  }
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
      close = await openListener(context.db, app.id, app.accountId, send);
      send("ready", { appId: app.id, name: app.name });
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
    headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store, no-transform", Connection: "keep-alive", "X-Accel-Buffering": "no" },
  });
};
