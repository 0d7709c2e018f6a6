/**
 * Merchants' uploaded images (contract 20, decision 060): recognised by their bytes (PNG, JPEG,
 * WebP, GIF; `image-sniff.ts`), at most 5 MB, stored in the database (the one store every web
 * process reads) and served at `STOREFRONT_URL/files/<id>.<ext>` with their own content type,
 * `nosniff` and a year's immutable cache (`serveFile`, app/web.server.ts). The admin's product form
 * and the site builder store through `storeImage`, like `POST /merchant/files`.
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { files, type StoredFile } from "../../../db/schema";
import { ApiError } from "../core/http.server";
import { newId } from "../core/ids.server";
import { now } from "../core/clock.server";
import { sniffImage, type ImageType } from "./image-sniff";

/** At most 5 MB (5,242,880 bytes) a file. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** A multipart upload's whole body: the file and its form's few fields. */
export const MAX_UPLOAD_BODY_BYTES = MAX_IMAGE_BYTES + 64 * 1024;
/** Larger pictures are refused: a browser showing one would spend hundreds of megabytes on it. */
export const MAX_IMAGE_PIXELS = 25_000_000;

const EXTENSIONS: Record<ImageType, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "image/gif": "gif",
};
export const ACCEPTED_IMAGE_TYPES = Object.keys(EXTENSIONS) as ImageType[];

export type UploadedImage = {
  id: string;
  url: string;
  contentType: string;
  size: number;
  width: number;
  height: number;
};

/** Where a stored file is served: on the storefront origin, its type's extension after the id. */
export const fileUrl = (storefrontUrl: string, f: Pick<StoredFile, "id" | "contentType">) =>
  `${storefrontUrl}/files/${f.id}.${EXTENSIONS[f.contentType as ImageType] ?? "bin"}`;

export const serializeFile = (storefrontUrl: string, f: StoredFile): UploadedImage => ({
  id: f.id,
  url: fileUrl(storefrontUrl, f),
  contentType: f.contentType,
  size: f.size,
  width: f.width,
  height: f.height,
});

/** Why these bytes are not an image we keep (400), or null when they are. */
function refusal(bytes: Uint8Array): string | null {
  if (bytes.byteLength === 0) return "file: the file is empty";
  if (bytes.byteLength > MAX_IMAGE_BYTES)
    return `file: the file is ${(bytes.byteLength / 1024 / 1024).toFixed(1)} MB; images may be at most 5 MB`;
  return null;
}

/**
 * Checks and stores one image of the business: 400 for an empty file, one over 5 MB, anything that
 * is not a PNG, JPEG, WebP or GIF by its content, or a picture over 25 megapixels.
 */
export async function storeImage(
  db: Db,
  businessId: string,
  storefrontUrl: string,
  upload: { bytes: Uint8Array; filename?: string },
): Promise<UploadedImage> {
  const problem = refusal(upload.bytes);
  if (problem) throw new ApiError(400, problem);
  const image = sniffImage(upload.bytes);
  if (!image)
    throw new ApiError(400, "file: must be a PNG, JPEG, WebP or GIF image (read from its content, not its name)");
  if (image.width * image.height > MAX_IMAGE_PIXELS)
    throw new ApiError(
      400,
      `file: the picture is ${image.width}×${image.height} pixels; at most 25 megapixels (e.g. 5000×5000)`,
    );
  const [row] = await db
    .insert(files)
    .values({
      id: newId("file"),
      businessId,
      contentType: image.contentType,
      size: upload.bytes.byteLength,
      width: image.width,
      height: image.height,
      filename: (upload.filename ?? "").slice(0, 200),
      data: Buffer.from(upload.bytes.buffer, upload.bytes.byteOffset, upload.bytes.byteLength),
      createdAt: now(),
    })
    .returning();
  return serializeFile(storefrontUrl, row);
}

/**
 * The `file` part of a multipart upload, or a 400 naming what is missing. The body was read by the
 * caller (its size limit applies there).
 */
export async function readUploadedFile(request: Request): Promise<{ bytes: Uint8Array; filename: string }> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type))
    throw new ApiError(400, "Send the image as multipart/form-data with the file in the field `file`");
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new ApiError(400, "The multipart body could not be read");
  }
  return fileOf(form);
}

/** The `file` field of a form (a File, not a string), read into memory. */
export async function fileOf(form: FormData, field = "file"): Promise<{ bytes: Uint8Array; filename: string }> {
  const part = form.get(field);
  if (!part || typeof part === "string")
    throw new ApiError(400, `${field}: attach an image file in the field \`${field}\``);
  return { bytes: new Uint8Array(await part.arrayBuffer()), filename: part.name ?? "" };
}

/** A stored file by the name in its URL (`<id>.<ext>`), with any business; null when there is none or the extension is not its own. */
export async function fileByName(db: Db, name: string): Promise<StoredFile | null> {
  const m = /^(file_[a-z0-9]{1,40})\.([a-z]{2,5})$/.exec(name);
  if (!m) return null;
  const [row] = await db.select().from(files).where(eq(files.id, m[1]));
  if (!row || EXTENSIONS[row.contentType as ImageType] !== m[2]) return null;
  return row;
}

/** One of the business's files (404 for another business's). */
export async function businessFile(db: Db, businessId: string, id: string): Promise<StoredFile> {
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.id, id), eq(files.businessId, businessId)));
  if (!row) throw new ApiError(404, "File not found");
  return row;
}
