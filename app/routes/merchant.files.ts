import { json } from "~/platform/core/http.server";
import { merchant, operation, platformRoute } from "~/platform/platform-api/wrapper.server";
import { requireBusiness } from "~/platform/accounts/business.server";
import { storeImage } from "~/platform/files/files.server";
import { FileUpload, UploadedFile } from "~/platform/platform-api/schemas";

export const { loader, action, declared } = platformRoute("/merchant/files", merchant("products"), {
  POST: operation({
    summary: "Upload an image (PNG, JPEG, WebP or GIF, recognised by its content; at most 5 MB)",
    description:
      "multipart/form-data with the file in the field `file`. Anything else (an SVG, an HTML page named .png, a file over 5 MB, a picture over 25 megapixels) is 400. The answer's `url` is on the storefront origin and never changes; use it as a product's imageUrl or an image block's url.",
    body: FileUpload,
    bodyMediaType: "multipart/form-data",
    bodyTooLarge: "file: images may be at most 5 MB",
    answer: { status: 201, schema: UploadedFile },
    errors: [400],
    handler: async ({ context, user, body }) => {
      const file = body.file;
      const stored = await storeImage(context.db, requireBusiness(user).id, context.env.storefrontUrl, {
        bytes: new Uint8Array(await file.arrayBuffer()),
        filename: file.name,
      });
      return json(stored, 201);
    },
  }),
});
