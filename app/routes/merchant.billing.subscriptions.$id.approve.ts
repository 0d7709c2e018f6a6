import { operation, merchant, platformRoute } from "~/platform/platform-api/wrapper.server";
import { clientAddress } from "~/platform/core/client-address.server";
import { oneBy } from "~/platform/core/operations.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { approveSubscription, serializeSubscription } from "~/platform/billing/subscriptions.server";
import { BillingSubscription } from "~/platform/billing/schemas";

export const { loader, action, declared } = platformRoute(
  "/merchant/billing/subscriptions/{id}/approve",
  merchant("apps"),
  {
    POST: operation({
      summary: "Approve a PENDING subscription or charge (for tests; the confirmation page does the same)",
      ...oneBy("id", "Subscription id", BillingSubscription, { errors: [404, 409] }),
      handler: async ({ context, user, params, request }) =>
        serializeSubscription(
          await approveSubscription(context.db, requireBusiness(user).id, params.id, {
            account: user.account,
            ip: clientAddress(request),
          }),
          context.env,
        ),
    }),
  },
);
