import { appApiRoute, listed, operation } from "~/platform/app-api/wrapper.server";
import { paged } from "~/platform/core/operations.server";
import {
  SubscriptionCreate,
  createSubscription,
  listInstallationSubscriptions,
  serializeSubscription,
} from "~/platform/billing/subscriptions.server";
import { BillingSubscription, BillingSubscriptionList, BILLING_SINCE } from "~/platform/billing/schemas";

export const { loader, action, declared } = appApiRoute("/app-api/billing/subscriptions", {
  GET: operation({
    since: BILLING_SINCE,
    summary: "List the installation's subscriptions and charges, newest first",
    ...paged(BillingSubscriptionList, { limit: 50, max: 100 }),
    handler: listed(
      ({ context, caller, page }) => listInstallationSubscriptions(context.db, caller.installation.id, page),
      (row, { context }) => serializeSubscription(row, context.env),
    ),
  }),
  POST: operation({
    since: BILLING_SINCE,
    summary: "Ask the merchant to subscribe to one of the app's plans (answers the confirmation page's URL)",
    description:
      "No scope: an app bills only its own installation. returnUrl must be on the origin of the app's redirectUrl or webhookUrl. Money in minor units ({amount, currency}).",
    body: SubscriptionCreate,
    answer: { status: 201, schema: BillingSubscription },
    errors: [400, 413],
    handler: async ({ context, caller, body }) =>
      serializeSubscription(await createSubscription(context.db, caller, body), context.env),
  }),
});
