import { appApiRoute, operation } from "~/platform/app-api/wrapper.server";
import { idempotencyKeyHeader, oneBy } from "~/platform/core/operations.server";
import { UsageCreate, recordUsage, serializeUsage } from "~/platform/billing/subscriptions.server";
import { UsageRecordAnswer, BILLING_SINCE } from "~/platform/billing/schemas";

export const { loader, action, declared } = appApiRoute("/app-api/billing/subscriptions/{id}/usage", {
  POST: operation({
    since: BILLING_SINCE,
    summary: "Record a usage charge under the subscription's cap",
    description:
      "A record that would pass the cap answers 409 naming the cap and the balance, and records nothing. Amounts in minor units of the subscription's currency.",
    ...oneBy("id", "Subscription id", UsageRecordAnswer, { status: 201, errors: [400, 404, 409, 413, 422] }),
    headers: idempotencyKeyHeader("A retry with the same key answers the first record and charges nothing more"),
    body: UsageCreate,
    handler: async ({ context, caller, params, headers, body }) => {
      const { record, sub } = await recordUsage(
        context.db,
        caller,
        params.id,
        body,
        headers["Idempotency-Key"] ?? null,
      );
      return serializeUsage(record, sub);
    },
  }),
});
