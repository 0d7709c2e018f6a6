import { appApiRoute, listed, operation } from "~/platform/app-api/wrapper.server";
import { clientAddress } from "~/platform/core/client-address.server";
import { paged } from "~/platform/core/operations.server";
import {
  createRegistration,
  listRegistrations,
  serializeWebhook,
  WebhookCreate,
} from "~/platform/webhooks/registrations.server";
import { WebhookCreated, WebhookList } from "~/platform/shapes/api";

export const { loader, action, declared } = appApiRoute("/webhooks", {
  GET: operation({
    summary: "List the installation's webhook registrations (no secrets)",
    ...paged(WebhookList, { limit: 50, max: 100 }),
    handler: listed(({ context, caller, page }) => listRegistrations(context.db, caller, page), serializeWebhook),
  }),
  POST: operation({
    summary: "Register a webhook; the answer carries its secret, once",
    body: WebhookCreate,
    answer: { status: 201, schema: WebhookCreated },
    errors: [400, 403, 413],
    handler: async ({ context, caller, body, request }) =>
      createRegistration(context.db, context.env, caller, body, clientAddress(request)),
  }),
});
