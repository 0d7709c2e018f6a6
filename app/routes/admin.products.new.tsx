import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import type { ApiError } from "~/platform/core/http.server";
import { createProduct } from "~/platform/catalog/products.server";
import { mergeFormErrors, parseProductForm, productApiErrors, takeUploadedImage } from "./__product-form.server";
import { ProductForm, emptyProductValues, productFormValues } from "~/components/product-form";
import { BackLink } from "~/components/page-parts";

export const meta: MetaFunction = () => [{ title: "Add product · Admin" }];

/** A taken slug next to the slug field, with what was typed. */
const refused = {
  error: (e: ApiError, form: FormData) => ({ errors: productApiErrors(e.message), values: productFormValues(form) }),
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { business } = await requireMerchant(request, context, "products");
  return json({ currency: business.currency });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { business } = await requireMerchant(request, context, "products");
  return formAction(request, context, refused, async (form) => {
    const imageError = await takeUploadedImage(form, context.db, business.id, context.env.storefrontUrl);
    const parsed = parseProductForm(form, business.currency, business.locale);
    if (!parsed.ok || imageError)
      return json(
        {
          errors: mergeFormErrors(imageError, parsed.ok ? { fields: {}, form: [] } : parsed.errors),
          values: parsed.values,
        },
        400,
      );
    const product = await createProduct(context.db, business.id, parsed.input);
    return redirect(`/admin/products/${product.id}?saved=created`);
  });
}

export default function NewProduct() {
  const { currency } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <div className="stack-lg">
      <header className="page-head">
        <BackLink to="/admin/products" label="Products" className="small" />
        <h1>Add product</h1>
      </header>
      <ProductForm
        mode="create"
        values={data?.values ?? emptyProductValues}
        errors={data?.errors}
        submitLabel="Create product"
        currency={currency}
      />
    </div>
  );
}
