import { PRODUCT_LABELS, readProductForm, type ProductFormValues } from "~/components/product-form";
import type { FormErrors } from "~/platform/core/form-errors.server";
import { hasFormErrors, messageFormErrors, zodFormErrors } from "~/platform/core/form-errors.server";
import { productSchema, type ProductInput } from "~/platform/catalog/products.server";
import type { Db } from "../../db/client";
import { ApiError } from "~/platform/core/http.server";
import { storeImage } from "~/platform/files/files.server";

/** Messages of the product domain that are about one field of the form. */
export const PRODUCT_MESSAGE_OWNERS = [{ test: /slug/i, field: "slug" }];

/**
 * Reads and validates a submitted admin product form: the product input, or every error at once
 * (price and stock as typed, and the schema's verdict on the other fields), each next to its field.
 */
export function parseProductForm(
  form: FormData,
  currency: string,
  locale: string,
):
  | { ok: true; values: ProductFormValues; input: ProductInput }
  | { ok: false; values: ProductFormValues; errors: FormErrors } {
  const { values, problems, draft } = readProductForm(form, currency, locale);
  const errors: FormErrors = { fields: {}, form: [] };
  for (const [field, words] of Object.entries(problems))
    errors.fields[field] = `${PRODUCT_LABELS[field as keyof typeof PRODUCT_LABELS]} ${words}`;
  const parsed = productSchema.safeParse(draft);
  if (!parsed.success) {
    const schemaErrors = zodFormErrors(parsed.error, PRODUCT_LABELS);
    // price and stock as typed come first: the draft holds a placeholder for them
    for (const [field, message] of Object.entries(schemaErrors.fields)) errors.fields[field] ??= message;
    errors.form.push(...schemaErrors.form);
  }
  if (hasFormErrors(errors) || !parsed.success) return { ok: false, values, errors };
  return { ok: true, values, input: parsed.data };
}

/** A domain error (a taken slug) as form errors. */
export const productApiErrors = (message: string) => messageFormErrors(message, PRODUCT_LABELS, PRODUCT_MESSAGE_OWNERS);

/**
 * The product form's picture file (`imageFile`, the form is multipart): stored like `POST
 * /merchant/files` and its URL put in the form's `imageUrl`, so the form reads as if the URL had
 * been typed. Without a file the typed URL stays (the form works without JavaScript either way).
 * A file that is not an image, or over 5 MB, is the image field's error.
 */
export async function takeUploadedImage(
  form: FormData,
  db: Db,
  businessId: string,
  storefrontUrl: string,
): Promise<FormErrors | null> {
  const part = form.get("imageFile");
  if (!part || typeof part === "string" || part.size === 0) return null;
  try {
    const stored = await storeImage(db, businessId, storefrontUrl, {
      bytes: new Uint8Array(await part.arrayBuffer()),
      filename: part.name,
    });
    form.set("imageUrl", stored.url);
    return null;
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 400) throw e;
    return { fields: { imageUrl: `Image file ${e.message.replace(/^file: /, "")}` }, form: [] };
  }
}

/** Two sets of form errors as one (the first's message wins for a field both name). */
export const mergeFormErrors = (a: FormErrors | null, b: FormErrors): FormErrors => ({
  fields: { ...b.fields, ...(a?.fields ?? {}) },
  form: [...(a?.form ?? []), ...b.form],
});
