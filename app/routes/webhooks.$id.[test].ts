import { z } from "zod";
import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { getRegistration } from "~/platform/webhooks/registrations.server";
import { sendTest } from "~/platform/webhooks/send-test.server";
import { WebhookTestResult } from "~/platform/shapes/api";

export const { loader, action, declared } = appApiRoute("/webhooks/{id}/test", {
  POST: operation({
    summary: "Send webhook.test now: one attempt, no retries, even when inactive",
    params: z.object({ id: z.string().describe("Webhook id") }),
    answer: { status: 200, schema: WebhookTestResult },
    errors: [404],
    handler: async ({ context, caller, params }) =>
      sendTest(context.db, context.env, await getRegistration(context.db, caller, params.id)),
  }),
});
