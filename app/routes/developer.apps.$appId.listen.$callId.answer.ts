import { z } from "zod";
import { ApiError, json } from "~/platform/core/http.server";
import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { getDeveloperApp } from "~/platform/apps/apps.server";
import { answerCall } from "~/platform/devtools/relay.server";

const CallAnswer = z
  .object({
    status: z.number().int().min(0).max(999).describe("the local server's status; 0 when it could not be reached"),
    body: z
      .string()
      .max(1024 * 1024)
      .describe("the local server's answer body"),
  })
  .meta({ id: "RelayedCallAnswer" });

/** The CLI's answer to a relayed call: the local server's status and body (status 0: it could not be reached). */
export const { loader, action, declared } = platformRoute(
  "/developer/apps/{appId}/listen/{callId}/answer",
  "DEVELOPER",
  {
    POST: operation({
      appRole: "DEVELOPER",
      summary: "Answer a hook call relayed by the listen stream (storefront-apps listen)",
      params: z.object({
        appId: z.string().describe("App id"),
        callId: z.string().describe("The call's id, from its `call` event"),
      }),
      body: CallAnswer,
      answer: { status: 200, schema: z.object({ answered: z.literal(true) }).meta({ id: "Answered" }) },
      errors: [400, 404, 413],
      handler: async ({ context, user, params, body }) => {
        const app = await getDeveloperApp(context.db, user.account.id, params.appId);
        if (!(await answerCall(context.db, app.id, params.callId, body)))
          throw new ApiError(404, "No such call waiting for an answer (it may have timed out)");
        return json({ answered: true });
      },
    }),
  },
);
