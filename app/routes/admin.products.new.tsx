import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireCsrf, requireUser } from "~/platform/accounts/session.server";
import { createProduct } from "~/platform/catalog/products.server";
import { parseProductForm, productApiErrors } from "./__product-form.server";
import { ApiError, readForm } from "~/platform/core/http.server";
import { ProductForm, emptyProductValues } from "~/components/product-form";

export const meta: MetaFunction = () => [{ title: "Add product · Admin" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { business } = await requireUser(request, context, "MERCHANT");
  if (!business) throw new Response("This account has no business.", { status: 403 });
  return json({ currency: business.currency });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { business } = await requireUser(request, context, "MERCHANT");
  if (!business) throw new Response("This account has no business.", { status: 403 });
  const form = await readForm(request);
  await requireCsrf(request, form, context.env);
  const parsed = parseProductForm(form, business.currency);
  const { values } = parsed;
  if (!parsed.ok) return json({ errors: parsed.errors, values }, 400);
  try {
    const product = await createProduct(context.db, business.id, parsed.input);
    return redirect(`/admin/products/${product.id}?saved=created`);
  } catch (e) {
    if (e instanceof ApiError) return json({ errors: productApiErrors(e.message), values }, e.status);
    throw e;
  }
}

export default function NewProduct() {
  const { currency } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <div className="stack-lg">
      <header className="page-head">
        <p className="small"><Link to="/admin/products">← Products</Link></p>
        <h1>Add product</h1>
      </header>
      <ProductForm mode="create" values={data?.values ?? emptyProductValues} errors={data?.errors} submitLabel="Create product" currency={currency} />
    </div>
  );
}
