import { Form, useNavigation } from "@remix-run/react";
import { CsrfInput } from "./csrf";

/** The product form's fields as the merchant typed them (price in major units, e.g. "12.50"). */
export type ProductFormValues = {
  name: string;
  slug: string;
  description: string;
  price: string;
  category: string;
  imageUrl: string;
  status: "ACTIVE" | "DRAFT" | "ARCHIVED";
  trackStock: boolean;
  stock: string;
  isAvailable: boolean;
};

export type ProductFormErrors = Partial<Record<keyof ProductFormValues, string>>;

export const PRODUCT_STATUSES = ["ACTIVE", "DRAFT", "ARCHIVED"] as const;

export const emptyProductValues: ProductFormValues = {
  name: "",
  slug: "",
  description: "",
  price: "",
  category: "",
  imageUrl: "",
  status: "ACTIVE",
  trackStock: false,
  stock: "",
  isAvailable: true,
};

/** Form values of a saved product: a draft's fields with its slug set (price in minor units). */
export function productToFormValues(p: Required<ProductDraft>): ProductFormValues {
  return {
    name: p.name,
    slug: p.slug,
    description: p.description,
    price: (p.price / 100).toFixed(2),
    category: p.category,
    imageUrl: p.imageUrl,
    status: (PRODUCT_STATUSES as readonly string[]).includes(p.status) ? (p.status as ProductFormValues["status"]) : "ACTIVE",
    trackStock: p.stock !== null,
    stock: p.stock === null ? "" : String(p.stock),
    isAvailable: p.isAvailable,
  };
}

/** Product input before schema validation: price in minor units, stock null when untracked. */
export type ProductDraft = {
  name: string;
  slug?: string;
  description: string;
  price: number;
  category: string;
  imageUrl: string;
  status: string;
  stock: number | null;
  isAvailable: boolean;
};

/**
 * Reads the submitted form: the typed values (to show again on error), the conversion errors of
 * price and stock, and the draft input for productSchema. Stock is tracked when "Track stock" is
 * ticked; an empty stock field then asks for a number.
 */
export function readProductForm(form: FormData): { values: ProductFormValues; errors: ProductFormErrors; draft: ProductDraft | null } {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  const status = text("status");
  const values: ProductFormValues = {
    name: text("name"),
    slug: text("slug"),
    description: text("description"),
    price: text("price"),
    category: text("category"),
    imageUrl: text("imageUrl"),
    status: (PRODUCT_STATUSES as readonly string[]).includes(status) ? (status as ProductFormValues["status"]) : "ACTIVE",
    trackStock: form.get("trackStock") === "on",
    stock: text("stock"),
    isAvailable: form.get("isAvailable") === "on",
  };
  const errors: ProductFormErrors = {};

  const priceText = values.price.trim().replace(/^\$/, "");
  let price = 0;
  if (priceText === "") errors.price = "is required";
  else if (!/^\d+(\.\d+)?$|^\.\d+$/.test(priceText) || !Number.isFinite(Number(priceText))) errors.price = "must be a number like 12.50";
  else price = Math.round(Number(priceText) * 100);

  let stock: number | null = null;
  if (values.trackStock) {
    const stockText = values.stock.trim();
    if (stockText === "") errors.stock = "enter how many are in stock, or untick Track stock";
    else if (!/^\d+$/.test(stockText)) errors.stock = "must be a whole number, 0 or more";
    else stock = Number(stockText);
  }

  if (Object.keys(errors).length) return { values, errors, draft: null };
  return {
    values,
    errors,
    draft: {
      name: values.name,
      slug: values.slug.trim() === "" ? undefined : values.slug.trim(),
      description: values.description,
      price,
      category: values.category,
      imageUrl: values.imageUrl,
      status: values.status,
      stock,
      isAvailable: values.isAvailable,
    },
  };
}

/** "field: message; field: message" like describeZodError, for the form's alert. */
export const describeFormErrors = (errors: ProductFormErrors) =>
  Object.entries(errors)
    .map(([field, message]) => `${field}: ${message}`)
    .join("; ");

/** Only same-site paths and http(s) URLs are shown as images. */
export const isSafeImageSrc = (src: string) => /^https?:\/\//i.test(src) || (src.startsWith("/") && !src.startsWith("//") && !src.startsWith("/\\"));

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <span id={id} className="field-error small">
      {message}
    </span>
  ) : null;
}

export function ProductForm({
  values,
  errors = {},
  mode,
  submitLabel,
  currency,
}: {
  values: ProductFormValues;
  errors?: ProductFormErrors;
  mode: "create" | "edit";
  submitLabel: string;
  currency?: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const invalid = (field: keyof ProductFormValues) => (errors[field] ? { "aria-invalid": true as const, "aria-describedby": `err-${field}` } : {});
  return (
    <Form method="post" className="card stack admin-form product-form" noValidate>
      <CsrfInput />
      <div className="grid-2">
        <label>
          Name
          <input name="name" defaultValue={values.name} required maxLength={120} {...invalid("name")} />
          <FieldError id="err-name" message={errors.name} />
        </label>
        <label>
          {mode === "create" ? "Slug (optional)" : "Slug"}
          <input name="slug" defaultValue={values.slug} maxLength={60} pattern="[a-z0-9]+(-[a-z0-9]+)*" placeholder={mode === "create" ? "made from the name" : undefined} {...invalid("slug")} />
          <span className="muted small">Lowercase letters, digits and hyphens; used in the storefront address.</span>
          <FieldError id="err-slug" message={errors.slug} />
        </label>
      </div>
      <label>
        Description
        <textarea name="description" defaultValue={values.description} maxLength={2000} rows={4} {...invalid("description")} />
        <FieldError id="err-description" message={errors.description} />
      </label>
      <div className="grid-2">
        <label>
          Price
          <input name="price" defaultValue={values.price} inputMode="decimal" placeholder="12.50" required {...invalid("price")} />
          <span className="muted small">In {currency || "your currency"}, e.g. 12.50</span>
          <FieldError id="err-price" message={errors.price} />
        </label>
        <label>
          Category
          <input name="category" defaultValue={values.category} maxLength={60} placeholder="e.g. Desserts" {...invalid("category")} />
          <FieldError id="err-category" message={errors.category} />
        </label>
      </div>
      <div className="grid-2">
        <label>
          Image URL
          <input name="imageUrl" defaultValue={values.imageUrl} maxLength={500} placeholder="https://… or /images/…" {...invalid("imageUrl")} />
          <FieldError id="err-imageUrl" message={errors.imageUrl} />
        </label>
        <label>
          Status
          <select name="status" defaultValue={values.status} {...invalid("status")}>
            <option value="ACTIVE">Active: shown in the storefront</option>
            <option value="DRAFT">Draft: hidden</option>
            <option value="ARCHIVED">Archived: hidden</option>
          </select>
          <FieldError id="err-status" message={errors.status} />
        </label>
      </div>
      {values.imageUrl && isSafeImageSrc(values.imageUrl) ? (
        <img className="product-thumb large" src={values.imageUrl} alt="" width={96} height={96} loading="lazy" />
      ) : null}
      <fieldset className="stack">
        <legend>Inventory</legend>
        <div className="stock-row">
          <label className="check">
            <input type="checkbox" name="trackStock" defaultChecked={values.trackStock} />
            Track stock
          </label>
          <label className="stock-field">
            <span>Stock</span>
            <input name="stock" type="number" min={0} max={1000000} step={1} defaultValue={values.stock} {...invalid("stock")} />
          </label>
        </div>
        <span className="muted small">Leave "Track stock" unticked for items you never run out of.</span>
        <FieldError id="err-stock" message={errors.stock} />
        <label className="check">
          <input type="checkbox" name="isAvailable" defaultChecked={values.isAvailable} />
          Available for sale
        </label>
      </fieldset>
      <div className="row">
        <button type="submit" name="intent" value="save" className="button primary" disabled={busy}>
          {busy ? "Saving…" : submitLabel}
        </button>
      </div>
    </Form>
  );
}
