import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { oneBy } from "~/platform/core/operations.server";
import { serializeApp } from "~/platform/apps/apps.server";
import { approveApp } from "~/platform/apps/review.server";
import { AppRecord } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute("/review/apps/{appId}/approve", "REVIEWER", {
  POST: operation({
    summary:
      "Approve the app or its update in review: APPROVED, the manifest synced, test installs become production installs",
    ...oneBy("appId", "App id", AppRecord, { errors: [404, 409] }),
    handler: async ({ context, user, params }) =>
      serializeApp(await approveApp(context.db, user.account.id, params.appId)),
  }),
});
