import { operation, merchant, platformRoute } from "~/platform/platform-api/wrapper.server";
import { oneBy } from "~/platform/core/operations.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { CapRaise, raiseUsageCap, serializeSubscription } from "~/platform/billing/subscriptions.server";
import { BillingSubscription } from "~/platform/billing/schemas";

export const { loader, action, declared } = platformRoute(
  "/merchant/billing/subscriptions/{id}/cap",
  merchant("billing"),
  {
    POST: operation({
      summary: "Raise an ACTIVE subscription's usage cap (the merchant's own approval)",
      ...oneBy("id", "Subscription id", BillingSubscription, { errors: [400, 404, 409] }),
      body: CapRaise,
      handler: async ({ context, user, params, body }) =>
        serializeSubscription(
          await raiseUsageCap(context.db, requireBusiness(user).id, params.id, body.usageCap),
          context.env,
        ),
    }),
  },
);
