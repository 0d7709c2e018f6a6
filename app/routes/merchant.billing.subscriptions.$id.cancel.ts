import { operation, merchant, platformRoute } from "~/platform/platform-api/wrapper.server";
import { oneBy } from "~/platform/core/operations.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { cancelSubscription, serializeSubscription } from "~/platform/billing/subscriptions.server";
import { BillingSubscription } from "~/platform/billing/schemas";

export const { loader, action, declared } = platformRoute(
  "/merchant/billing/subscriptions/{id}/cancel",
  merchant("billing"),
  {
    POST: operation({
      summary: "Cancel an ACTIVE subscription (its period is billed prorated to the day)",
      ...oneBy("id", "Subscription id", BillingSubscription, { errors: [404, 409] }),
      handler: async ({ context, user, params }) =>
        serializeSubscription(
          await cancelSubscription(context.db, { businessId: requireBusiness(user).id }, params.id, "MERCHANT"),
          context.env,
        ),
    }),
  },
);
