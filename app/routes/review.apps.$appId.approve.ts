import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { clientAddress } from "~/platform/core/client-address.server";
import { oneBy } from "~/platform/core/operations.server";
import { serializeApp } from "~/platform/apps/apps.server";
import { approvalSchema, approveApp } from "~/platform/apps/review.server";
import { AppRecord } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute("/review/apps/{appId}/approve", "REVIEWER", {
  POST: operation({
    summary:
      "Approve the app or its update in review: APPROVED, the manifest synced, test installs become production installs",
    description:
      "The body names the review criteria the reviewer checked; an approval without all five is refused with 400 naming the missing ones, and nothing changes.",
    ...oneBy("appId", "App id", AppRecord, { errors: [400, 404, 409] }),
    body: approvalSchema,
    bodyOptional: true,
    handler: async ({ context, user, params, body, request }) =>
      serializeApp(
        await approveApp(context.db, user.account.id, params.appId, body.criteria, {
          account: user.account,
          ip: clientAddress(request),
        }),
      ),
  }),
});
