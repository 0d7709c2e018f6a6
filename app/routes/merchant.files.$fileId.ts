import { merchant, operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { oneBy } from "~/platform/core/operations.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { businessFile, serializeFile } from "~/platform/files/files.server";
import { UploadedFile } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute("/merchant/files/{fileId}", merchant("products"), {
  GET: operation({
    summary: "One of the business's uploaded images (another business's is 404)",
    ...oneBy("fileId", "File id", UploadedFile),
    handler: async ({ context, user, params }) =>
      serializeFile(context.env.storefrontUrl, await businessFile(context.db, requireBusiness(user).id, params.fileId)),
  }),
});
