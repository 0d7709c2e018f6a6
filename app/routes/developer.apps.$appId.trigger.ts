import { z } from "zod";
import { json } from "~/platform/core/http.server";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { triggerEvent, TRIGGERABLE } from "~/platform/devtools/trigger.server";
import { TriggeredEvent } from "~/platform/platform-api/schemas";
import { TriggerOverrides } from "~/platform/devtools/overrides.server";

/** `storefront-apps trigger <event>`: the event made for real on the sandbox, sent only to this app's installation there (202). */
export const { loader, action, declared } = platformRoute("/developer/apps/{appId}/trigger", "DEVELOPER", {
  POST: operation({
    appRole: "DEVELOPER",
    summary:
      "Make an event happen on the developer's sandbox, for this app's installation only (storefront-apps trigger)",
    description:
      "The event is raised by a real change of the sandbox (an order placed through the checkout with this app's hooks and no other app's, a product changed, a review written, a payment moved), so its payload is a real one; it goes only to this app's installation on the sandbox. 422 when the app's order.validate hook refuses the sample order. business.data_erasure and app.uninstalled are built for that installation without uninstalling it; customer.redact places an order for a new sample shopper, delivers it and erases that shopper for real. 409 when the app is not installed on the sandbox, or no registration of the installation would receive the event.",
    params: z.object({ appId: z.string().describe("App id") }),
    body: z
      .object({
        event: z
          .enum(TRIGGERABLE, { error: () => `must be one of ${TRIGGERABLE.join(", ")}` })
          .describe("The event's name (any event of the catalogue)"),
        overrides: TriggerOverrides.optional().describe(
          "Fields of the made object (contract 19): orders' customer, items and currency; reviews' rating and body. Validated as the real input (400 naming the field).",
        ),
      })
      .meta({ id: "TriggerRequest" }),
    answer: { status: 202, schema: TriggeredEvent },
    errors: [400, 404, 409, 413, 422],
    handler: async ({ context, user, params, body }) =>
      json(
        await triggerEvent(
          context.db,
          context.env,
          user.account,
          user.business,
          params.appId,
          body.event,
          body.overrides,
        ),
        202,
      ),
  }),
});
