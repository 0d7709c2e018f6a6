import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { clientAddress } from "~/platform/core/client-address.server";
import { oneBy } from "~/platform/core/operations.server";
import {
  deleteRegistration,
  getRegistration,
  serializeWebhook,
  updateRegistration,
  WebhookUpdate,
} from "~/platform/webhooks/registrations.server";
import { Webhook } from "~/platform/shapes/api";

const one = oneBy("id", "Webhook id", Webhook);

export const { loader, action, declared } = appApiRoute("/webhooks/{id}", {
  GET: operation({
    summary: "One registration",
    ...one,
    handler: async ({ context, caller, params }) =>
      serializeWebhook(await getRegistration(context.db, caller, params.id)),
  }),
  PATCH: operation({
    summary: "Change a registration; isActive true re-activates it",
    ...one,
    body: WebhookUpdate,
    errors: [400, 403, 404],
    handler: async ({ context, caller, params, body, request }) =>
      updateRegistration(context.db, context.env, caller, params.id, body, clientAddress(request)),
  }),
  DELETE: operation({
    summary: "Delete a registration (not the install registration: deactivate that)",
    params: one.params,
    answer: { status: 204, description: "Deleted" },
    errors: [404, 409],
    handler: async ({ context, caller, params, request }) => {
      await deleteRegistration(context.db, caller, params.id, clientAddress(request));
    },
  }),
});
