import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { ChargeCreate, createCharge, serializeSubscription } from "~/platform/billing/subscriptions.server";
import { BillingSubscription, BILLING_SINCE } from "~/platform/billing/schemas";

export const { loader, action, declared } = appApiRoute("/app-api/billing/charges", {
  POST: operation({
    since: BILLING_SINCE,
    summary: "Ask the merchant for a one-time charge (answers the confirmation page's URL)",
    description: "Billed on the merchant's invoice when approved. returnUrl must be on one of the app's origins.",
    body: ChargeCreate,
    answer: { status: 201, schema: BillingSubscription },
    errors: [400, 413],
    handler: async ({ context, caller, body }) =>
      serializeSubscription(await createCharge(context.db, caller, body), context.env),
  }),
});
