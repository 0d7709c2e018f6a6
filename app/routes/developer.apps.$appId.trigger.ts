import { z } from "zod";
import { json } from "~/platform/core/http.server";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { triggerSample } from "~/platform/devtools/trigger.server";
import { EVENT_NAMES } from "~/platform/apps/catalog";
import { TriggeredEvent } from "~/platform/platform-api/schemas";

const CATALOGUE_EVENTS = [...new Set<string>([...EVENT_NAMES, "app.uninstalled"])];

/** `storefront-apps trigger <event>`: a sample event on the developer's sandbox business (202). */
export const { loader, action, declared } = platformRoute("/developer/apps/{appId}/trigger", "DEVELOPER", {
  POST: operation({
    summary: "Emit a sample event on the developer's sandbox business (storefront-apps trigger)",
    params: z.object({ appId: z.string().describe("App id") }),
    // the event's name is checked by triggerSample, with the list of events in its message; the
    // document names the catalogue's events (contract 14: every one of them can be triggered)
    body: z
      .object({
        event: z.unknown().meta({ type: "string", enum: CATALOGUE_EVENTS, description: "The event to send" }),
      })
      .meta({ id: "TriggerRequest" }),
    answer: { status: 202, schema: TriggeredEvent },
    errors: [400, 404, 409, 413],
    handler: async ({ context, user, params, body }) =>
      json(await triggerSample(context.db, user.account, params.appId, body.event), 202),
  }),
});
