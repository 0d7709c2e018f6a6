import { operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { clientAddress } from "~/platform/core/client-address.server";
import { oneBy } from "~/platform/core/operations.server";
import { serializeApp } from "~/platform/apps/apps.server";
import { rejectApp, rejectSchema } from "~/platform/apps/review.server";
import { AppRecord } from "~/platform/platform-api/schemas";

const Rejection = rejectSchema.meta({ id: "AppRejection" });

export const { loader, action, declared } = platformRoute("/review/apps/{appId}/reject", "REVIEWER", {
  POST: operation({
    summary: "Send the app back to its developer with notes: DRAFT, or APPROVED with the update withdrawn",
    ...oneBy("appId", "App id", AppRecord, { errors: [400, 404, 409] }),
    body: Rejection,
    bodyOptional: true,
    handler: async ({ context, params, body, user, request }) =>
      serializeApp(
        await rejectApp(context.db, params.appId, body.notes, { account: user.account, ip: clientAddress(request) }),
      ),
  }),
});
