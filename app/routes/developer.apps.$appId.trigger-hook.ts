import { z } from "zod";
import { json } from "~/platform/core/http.server";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { triggerHook } from "~/platform/devtools/trigger-hook.server";
import { HOOK_POINTS } from "~/platform/shapes/manifest";
import { TriggeredHook } from "~/platform/platform-api/schemas";

/** `storefront-apps trigger hook <point>`: the app's hook called as a sandbox checkout would, and what the platform made of the answer. */
export const { loader, action, declared } = platformRoute("/developer/apps/{appId}/trigger-hook", "DEVELOPER", {
  POST: operation({
    appRole: "DEVELOPER",
    summary: "Call the app's hook for a hook point as a checkout of the sandbox would (storefront-apps trigger hook)",
    description:
      "With a real cart of the sandbox, only this app's installation is called, through the checkout's own steps; the answer says what the app answered (or why the call was skipped) and what the platform made of it. For checkout.create_payment a real order is placed with the app's first offered method. 409 when the app is not installed on the sandbox, lacks the scope, or has no active hook for the point.",
    params: z.object({ appId: z.string().describe("App id") }),
    body: z
      .object({
        hookPoint: z.enum(HOOK_POINTS, { error: () => `must be one of ${HOOK_POINTS.join(", ")}` }),
      })
      .meta({ id: "TriggerHookRequest" }),
    answer: { status: 200, schema: TriggeredHook },
    errors: [400, 404, 409, 413],
    handler: async ({ context, user, params, body }) =>
      json(await triggerHook(context.db, context.env, user.account, user.business, params.appId, body.hookPoint)),
  }),
});
