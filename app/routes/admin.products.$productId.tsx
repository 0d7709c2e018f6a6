import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useStorefrontUrl } from "~/components/origins";
import { json, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { orNotFound, requireMerchant } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import type { ApiError } from "~/platform/core/http.server";
import { getProduct } from "~/platform/catalog/queries.server";
import { deleteProduct, updateProduct } from "~/platform/catalog/products.server";
import { mergeFormErrors, parseProductForm, productApiErrors, takeUploadedImage } from "./__product-form.server";
import { formatMoney } from "~/platform/catalog/admin-queries.server";
import { CsrfInput } from "~/components/csrf";
import { ProductForm, productToFormValues, productFormValues } from "~/components/product-form";
import type { FormErrors } from "~/components/form-errors";
import { SubmitButton } from "~/components/submit-button";
import { BackLink, Card, ErrorAlert, SuccessNotice } from "~/components/page-parts";
import { useShopFormat } from "~/components/shop-format";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.product.name ?? "Product"} · Admin` },
];

/** A refused save shows its errors next to the fields, with what was typed; a refused delete, its message. */
const refused = {
  notFound: "Product not found",
  error: (e: ApiError, form: FormData) =>
    form.get("intent") === "delete"
      ? { error: e.message as string | null, errors: null as FormErrors | null, values: null }
      : { error: null, errors: productApiErrors(e.message) as FormErrors | null, values: productFormValues(form) },
};

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { business } = await requireMerchant(request, context, "products");
  const p = await getProduct(context.db, business.id, params.productId ?? "").catch(orNotFound("Product not found"));
  return json({
    currency: business.currency,
    product: {
      id: p.id,
      name: p.name,
      slug: p.slug,
      description: p.description,
      price: p.price,
      priceLabel: formatMoney(p.price, business.currency, business.locale),
      category: p.category,
      imageUrl: p.imageUrl,
      status: p.status,
      stock: p.stock,
      isAvailable: p.isAvailable,
      createdAt: p.createdAt.toISOString(),
      updatedAt: p.updatedAt.toISOString(),
    },
    storefrontUrl: `/s/${business.slug}`,
  });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { business } = await requireMerchant(request, context, "products");
  const productId = params.productId ?? "";
  return formAction(request, context, refused, async (form) => {
    const intent = form.get("intent");
    if (intent === "delete") {
      await deleteProduct(context.db, business.id, productId);
      return redirect("/admin/products?saved=deleted");
    }
    if (intent !== null && intent !== "save")
      return json({ error: "Unknown action", errors: null as FormErrors | null, values: null }, 400);
    const imageError = await takeUploadedImage(form, context.db, business.id, context.env.storefrontUrl);
    const parsed = parseProductForm(form, business.currency, business.locale);
    if (!parsed.ok || imageError)
      return json(
        {
          error: null,
          errors: mergeFormErrors(imageError, parsed.ok ? { fields: {}, form: [] } : parsed.errors),
          values: parsed.values,
        },
        400,
      );
    await updateProduct(context.db, business.id, productId, parsed.input);
    return redirect(`/admin/products/${productId}?saved=updated`);
  });
}

export default function EditProduct() {
  const { dates, locale } = useShopFormat();
  const { product, currency, storefrontUrl } = useLoaderData<typeof loader>();
  const storefront = useStorefrontUrl();
  const data = useActionData<typeof action>();
  const [params] = useSearchParams();
  const saved = params.get("saved");
  return (
    <div className="stack-lg">
      <header className="page-head">
        <BackLink to="/admin/products" label="Products" className="small" />
        <h1 className="break">{product.name}</h1>
        <p className="muted small">
          {product.priceLabel} · last saved {dates.dateTime(product.updatedAt, { zone: true })} ·{" "}
          {product.status === "ACTIVE" ? (
            <a href={storefront(storefrontUrl)}>View storefront</a>
          ) : (
            "not shown in the storefront"
          )}
        </p>
      </header>
      <ErrorAlert error={data?.error} />
      <SuccessNotice show={!data && saved === "created"}>The product was created.</SuccessNotice>
      <SuccessNotice show={!data && saved === "updated"}>Changes saved.</SuccessNotice>

      <ProductForm
        key={product.updatedAt}
        mode="edit"
        values={data?.values ?? productToFormValues(product, currency, locale)}
        errors={data?.errors}
        submitLabel="Save changes"
        currency={currency}
      />

      <Card title="Delete product">
        <p className="muted small">
          The product leaves your storefront and its reviews are deleted with it. Past orders keep their lines.
        </p>
        <details className="confirm">
          <summary>Delete {product.name}…</summary>
          <p className="muted small">This cannot be undone.</p>
          <Form method="post">
            <CsrfInput />
            <SubmitButton name="intent" value="delete" className="button danger" busyLabel="Deleting…">
              Delete product
            </SubmitButton>
          </Form>
        </details>
      </Card>
    </div>
  );
}
