import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { listReviewsWithProduct, pageCount, readPage } from "~/platform/catalog/admin-queries.server";
import { deleteReview } from "~/platform/catalog/products.server";
import { CsrfInput } from "~/components/csrf";
import { Pagination } from "~/components/pagination";
import { SubmitButton } from "~/components/submit-button";
import { DataTable, EmptyList, ErrorAlert, PageHeader, SuccessNotice, utcDay } from "~/components/page-parts";

export const meta: MetaFunction = () => [{ title: "Reviews · Admin" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { business } = await requireMerchant(request, context, "products");
  const page = readPage(new URL(request.url));
  const { rows, total } = await listReviewsWithProduct(context.db, business.id, { page });
  return json({
    page,
    pages: pageCount(total),
    total,
    reviews: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { business } = await requireMerchant(request, context, "products");
  return formAction(request, context, async (form) => {
    if (form.get("intent") !== "delete") return json({ error: "Unknown action" }, 400);
    await deleteReview(context.db, business.id, String(form.get("reviewId") ?? ""));
    const page = Number(form.get("page"));
    return redirect(`/admin/reviews?saved=deleted${Number.isInteger(page) && page > 1 ? `&page=${page}` : ""}`);
  });
}

const stars = (rating: number) => {
  const r = Math.max(0, Math.min(5, Math.round(rating)));
  return "★".repeat(r) + "☆".repeat(5 - r);
};

export default function AdminReviews() {
  const { page, pages, total, reviews } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const [params] = useSearchParams();
  return (
    <div className="stack-lg">
      <PageHeader title="Reviews" className="page-head">
        What customers say about your products. Delete reviews that are spam or abusive.
      </PageHeader>
      <ErrorAlert error={data?.error} />
      <SuccessNotice show={!data?.error && params.get("saved") === "deleted"}>The review was deleted.</SuccessNotice>

      {reviews.length === 0 ? (
        <EmptyList noun="reviews" total={total} firstPage="/admin/reviews">
          <p>When customers review your products, their reviews appear here.</p>
        </EmptyList>
      ) : (
        <>
          <p className="muted small">
            {total} {total === 1 ? "review" : "reviews"}, newest first
          </p>
          <DataTable
            rows={reviews}
            rowKey={(r) => r.id}
            rowProps={() => ({ "data-testid": "review-row" })}
            columns={[
              {
                head: "Product",
                className: "break",
                cell: (r) => <Link to={`/admin/products/${r.productId}`}>{r.productName}</Link>,
              },
              {
                head: "Rating",
                className: "nowrap",
                cell: (r) => (
                  <span className="stars" role="img" aria-label={`${r.rating} out of 5 stars`}>
                    {stars(r.rating)}
                  </span>
                ),
              },
              { head: "Author", className: "break", cell: (r) => r.authorName },
              {
                head: "Comment",
                className: "prewrap wide",
                cell: (r) => r.comment || <span className="muted">No comment</span>,
              },
              { head: "Date", className: "nowrap", cell: (r) => utcDay(r.createdAt) },
              {
                head: <span className="sr-only">Actions</span>,
                label: "",
                cell: (r) => (
                  <details className="confirm compact">
                    <summary>Delete…</summary>
                    <p className="muted small">Delete the review by {r.authorName}? This cannot be undone.</p>
                    <Form method="post">
                      <CsrfInput />
                      <input type="hidden" name="reviewId" value={r.id} />
                      <input type="hidden" name="page" value={page} />
                      <SubmitButton name="intent" value="delete" className="button danger small" busyLabel="Deleting…">
                        Delete review
                      </SubmitButton>
                    </Form>
                  </details>
                ),
              },
            ]}
          />
        </>
      )}

      <Pagination page={page} pages={pages} path="/admin/reviews" />
    </div>
  );
}
