import { Form } from "@remix-run/react";
import { CsrfInput } from "./csrf";
import { ErrorSummary, Field, FieldError, fieldProps, type FormErrors } from "./form-errors";
import { SubmitButton } from "./submit-button";
import { exampleAmountIn, MAX_PRICE_MINOR, parseMoneyInput, toMajorInput } from "~/platform/core/money";
import { useShopFormat } from "./shop-format";

/** What the picture inputs offer (the server reads the bytes: `platform/files/image-sniff.ts`). */
export const IMAGE_ACCEPT = "image/png,image/jpeg,image/webp,image/gif";

/** The product form's fields as the merchant typed them (price in major units as the shop's locale writes them, "12.50", "6,50"). */
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

/** What is wrong with a field, in words that follow its label ("must be a number like 12.50"). */
export type ProductFieldProblems = Partial<Record<keyof ProductFormValues, string>>;

/** The label of each field, as the form shows it; error messages start with it. */
export const PRODUCT_LABELS = {
  name: "Name",
  slug: "Slug",
  description: "Description",
  price: "Price",
  category: "Category",
  imageUrl: "Image URL",
  status: "Status",
  stock: "Stock",
  isAvailable: "Available for sale",
} as const;
const PRODUCT_FIELD_ORDER = Object.keys(PRODUCT_LABELS);

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

/** Form values of a saved product: a draft's fields with its slug set (price in minor units of `currency`, shown with its decimals in the locale). */
export function productToFormValues(p: Required<ProductDraft>, currency: string, locale: string): ProductFormValues {
  return {
    name: p.name,
    slug: p.slug,
    description: p.description,
    price: toMajorInput(p.price, currency, locale),
    category: p.category,
    imageUrl: p.imageUrl,
    status: (PRODUCT_STATUSES as readonly string[]).includes(p.status)
      ? (p.status as ProductFormValues["status"])
      : "ACTIVE",
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
 * Reads the submitted form: the typed values (to show again on error), what is wrong with price
 * and stock as typed, and the draft input for productSchema. The draft is made even when price or
 * stock cannot be read, so that the other fields are checked too and every error shows at once.
 * Stock is tracked when "Track stock" is ticked; an empty stock field then asks for a number.
 */
/** What was typed, as the form shows it again (the same in every currency). */
export function productFormValues(form: FormData): ProductFormValues {
  const text = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : "";
  };
  const status = text("status");
  return {
    name: text("name"),
    slug: text("slug"),
    description: text("description"),
    price: text("price"),
    category: text("category"),
    imageUrl: text("imageUrl"),
    status: (PRODUCT_STATUSES as readonly string[]).includes(status)
      ? (status as ProductFormValues["status"])
      : "ACTIVE",
    trackStock: form.get("trackStock") === "on",
    stock: text("stock"),
    isAvailable: form.get("isAvailable") === "on",
  };
}

export function readProductForm(
  form: FormData,
  currency: string,
  locale: string,
): { values: ProductFormValues; problems: ProductFieldProblems; draft: ProductDraft } {
  const values = productFormValues(form);
  const problems: ProductFieldProblems = {};

  // typed in the shop's locale ("6,50" in a Danish shop), its currency's sign allowed, refused in its units
  const priceText = values.price.trim();
  let price = 0;
  if (priceText === "") problems.price = "is required";
  else {
    const read = parseMoneyInput(priceText, currency, locale, { max: MAX_PRICE_MINOR });
    if (read.ok) price = read.minor;
    else problems.price = read.problem;
  }

  let stock: number | null = null;
  if (values.trackStock) {
    const stockText = values.stock.trim();
    if (stockText === "") problems.stock = "is needed when Track stock is ticked (or untick Track stock)";
    else if (!/^\d+$/.test(stockText)) problems.stock = "must be a whole number, 0 or more";
    else stock = Number(stockText);
  }

  return {
    values,
    problems,
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

/** Only same-site paths and http(s) URLs are shown as images. */
export const isSafeImageSrc = (src: string) =>
  /^https?:\/\//i.test(src) || (src.startsWith("/") && !src.startsWith("//") && !src.startsWith("/\\"));

export function ProductForm({
  values,
  errors,
  mode,
  submitLabel,
  currency,
}: {
  values: ProductFormValues;
  errors?: FormErrors | null;
  mode: "create" | "edit";
  submitLabel: string;
  currency: string;
}) {
  const field = (name: keyof typeof PRODUCT_LABELS, describedBy?: string) => fieldProps(name, errors, describedBy);
  const { locale } = useShopFormat();
  const example = exampleAmountIn(currency, locale);
  return (
    <div className="stack">
      <ErrorSummary errors={errors} order={PRODUCT_FIELD_ORDER} />
      {/* multipart: a picture file goes with the fields (the URL field stays for an address) */}
      <Form method="post" encType="multipart/form-data" className="card stack admin-form product-form" noValidate>
        <CsrfInput />
        <div className="grid-2">
          <Field name="name" label="Name" errors={errors}>
            <input name="name" defaultValue={values.name} required {...field("name")} />
          </Field>
          <Field name="slug" label={mode === "create" ? "Slug (optional)" : "Slug"} errors={errors}>
            <input
              name="slug"
              defaultValue={values.slug}
              pattern="[a-z0-9]+(-[a-z0-9]+)*"
              placeholder={mode === "create" ? "made from the name" : undefined}
              {...field("slug", "help-slug")}
            />
            <span id="help-slug" className="muted small">
              Lowercase letters, digits and hyphens; used in the storefront address.
            </span>
          </Field>
        </div>
        <Field name="description" label="Description" errors={errors}>
          <textarea name="description" defaultValue={values.description} rows={4} {...field("description")} />
        </Field>
        <div className="grid-2">
          <Field name="price" label="Price" errors={errors}>
            <input
              name="price"
              defaultValue={values.price}
              inputMode="decimal"
              placeholder={example}
              required
              {...field("price", "help-price")}
            />
            <span id="help-price" className="muted small">
              In {currency}, e.g. {example}
            </span>
          </Field>
          <Field name="category" label="Category" errors={errors}>
            <input name="category" defaultValue={values.category} placeholder="e.g. Desserts" {...field("category")} />
          </Field>
        </div>
        <div className="grid-2">
          <div className="stack">
            <Field name="imageUrl" label="Image URL" errors={errors}>
              <input
                name="imageUrl"
                defaultValue={values.imageUrl}
                placeholder="https://… or /images/…"
                {...field("imageUrl", "help-image")}
              />
            </Field>
            <div className="field">
              <label>
                Or upload a picture
                <input type="file" name="imageFile" accept={IMAGE_ACCEPT} aria-describedby="help-image" />
              </label>
            </div>
            <span id="help-image" className="muted small">
              PNG, JPEG, WebP or GIF, at most 5 MB. An uploaded picture replaces the address above.
            </span>
          </div>
          <Field name="status" label="Status" errors={errors}>
            <select name="status" defaultValue={values.status} {...field("status")}>
              <option value="ACTIVE">Active: shown in the storefront</option>
              <option value="DRAFT">Draft: hidden</option>
              <option value="ARCHIVED">Archived: hidden</option>
            </select>
          </Field>
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
              <input
                name="stock"
                type="number"
                min={0}
                max={1000000}
                step={1}
                defaultValue={values.stock}
                {...field("stock")}
              />
            </label>
          </div>
          <span className="muted small">Leave "Track stock" unticked for items you never run out of.</span>
          <FieldError name="stock" errors={errors} />
          <label className="check">
            <input type="checkbox" name="isAvailable" defaultChecked={values.isAvailable} />
            Available for sale
          </label>
        </fieldset>
        <div className="row">
          <SubmitButton
            name="intent"
            value="save"
            className="button primary"
            busyLabel={mode === "create" ? "Creating…" : "Saving…"}
          >
            {submitLabel}
          </SubmitButton>
        </div>
      </Form>
    </div>
  );
}
