import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { oneBy } from "~/platform/core/operations.server";
import {
  cancelSubscription,
  getInstallationSubscription,
  serializeSubscription,
} from "~/platform/billing/subscriptions.server";
import { BillingSubscription, BILLING_SINCE } from "~/platform/billing/schemas";

export const { loader, action, declared } = appApiRoute("/app-api/billing/subscriptions/{id}", {
  GET: operation({
    since: BILLING_SINCE,
    summary: "One of the installation's subscriptions or charges",
    ...oneBy("id", "Subscription id", BillingSubscription),
    handler: async ({ context, caller, params }) =>
      serializeSubscription(
        await getInstallationSubscription(context.db, caller.installation.id, params.id),
        context.env,
      ),
  }),
  DELETE: operation({
    since: BILLING_SINCE,
    summary: "Cancel an ACTIVE subscription (its period is billed prorated to the day)",
    ...oneBy("id", "Subscription id", BillingSubscription, { errors: [404, 409] }),
    handler: async ({ context, caller, params }) =>
      serializeSubscription(
        await cancelSubscription(context.db, { installationId: caller.installation.id }, params.id, "APP"),
        context.env,
      ),
  }),
});
