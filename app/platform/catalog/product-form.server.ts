import { describeFormErrors, readProductForm, type ProductFormErrors, type ProductFormValues } from "../../components/product-form";
import { describeZodError } from "../core/http.server";
import { productSchema, type ProductInput } from "./products.server";

/** Reads and validates a submitted admin product form: the product input, or the message and field errors for a 400. */
export function parseProductForm(
  form: FormData,
): { ok: true; values: ProductFormValues; input: ProductInput } | { ok: false; values: ProductFormValues; error: string; errors: ProductFormErrors } {
  const { values, errors, draft } = readProductForm(form);
  if (!draft) return { ok: false, values, error: describeFormErrors(errors), errors };
  const parsed = productSchema.safeParse(draft);
  if (!parsed.success) {
    const fieldErrors: ProductFormErrors = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "") as keyof ProductFormErrors;
      if (field && !fieldErrors[field]) fieldErrors[field] = issue.message;
    }
    return { ok: false, values, error: describeZodError(parsed.error), errors: fieldErrors };
  }
  return { ok: true, values, input: parsed.data };
}
