import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { requireMerchant } from "~/platform/accounts/guards.server";
import { formAction } from "~/platform/accounts/form-action.server";
import { listReviewsWithProduct, pageCount, readPage } from "~/platform/catalog/admin-queries.server";
import { deleteReview, removeReviewReply, replyToReview } from "~/platform/catalog/products.server";
import { ReviewReplyBody } from "~/platform/platform-api/schemas";
import { CsrfInput } from "~/components/csrf";
import { Pagination } from "~/components/pagination";
import { SubmitButton } from "~/components/submit-button";
import { DataTable, EmptyList, ErrorAlert, PageHeader, SuccessNotice } from "~/components/page-parts";
import { useShopFormat } from "~/components/shop-format";

export const meta: MetaFunction = () => [{ title: "Reviews · Admin" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { business } = await requireMerchant(request, context, "products");
  const page = readPage(new URL(request.url));
  const { rows, total } = await listReviewsWithProduct(context.db, business.id, { page });
  return json({
    page,
    pages: pageCount(total),
    total,
    reviews: rows.map((r) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      replyCreatedAt: r.replyCreatedAt?.toISOString() ?? null,
    })),
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { business } = await requireMerchant(request, context, "products");
  return formAction(request, context, async (form) => {
    const intent = form.get("intent");
    const reviewId = String(form.get("reviewId") ?? "");
    const page = Number(form.get("page"));
    const back = (saved: string) =>
      redirect(
        `/admin/reviews?saved=${saved}${Number.isInteger(page) && page > 1 ? `&page=${page}` : ""}#review-${reviewId}`,
      );
    if (intent === "delete") {
      await deleteReview(context.db, business.id, reviewId);
      return back("deleted");
    }
    if (intent === "reply") {
      const parsed = ReviewReplyBody.safeParse({ body: String(form.get("body") ?? "") });
      if (!parsed.success)
        return json(
          { error: `Your reply ${parsed.error.issues[0].message}.`, reviewId, body: String(form.get("body") ?? "") },
          400,
        );
      await replyToReview(context.db, business.id, reviewId, parsed.data.body);
      return back("replied");
    }
    if (intent === "unreply") {
      await removeReviewReply(context.db, business.id, reviewId);
      return back("unreplied");
    }
    return json({ error: "Unknown action" }, 400);
  });
}

const stars = (rating: number) => {
  const r = Math.max(0, Math.min(5, Math.round(rating)));
  return "★".repeat(r) + "☆".repeat(5 - r);
};

export default function AdminReviews() {
  const { dates } = useShopFormat();
  const { page, pages, total, reviews } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const [params] = useSearchParams();
  return (
    <div className="stack-lg">
      <PageHeader title="Reviews" className="page-head">
        What customers say about your products. Reply in public, under the review in your shop; delete reviews that are
        spam or abusive.
      </PageHeader>
      <ErrorAlert error={data?.error} />
      <SuccessNotice show={!data?.error && params.get("saved") === "deleted"}>The review was deleted.</SuccessNotice>
      <SuccessNotice show={!data?.error && params.get("saved") === "replied"}>
        Your reply was published under the review.
      </SuccessNotice>
      <SuccessNotice show={!data?.error && params.get("saved") === "unreplied"}>Your reply was removed.</SuccessNotice>

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
                cell: (r) => (
                  <div className="stack" id={`review-${r.id}`}>
                    <div>{r.comment || <span className="muted">No comment</span>}</div>
                    <ReplyCell
                      review={r}
                      page={page}
                      failed={
                        data && "reviewId" in data && "body" in data && data.reviewId === r.id
                          ? { error: data.error, body: String(data.body) }
                          : null
                      }
                    />
                  </div>
                ),
              },
              { head: "Date", className: "nowrap", cell: (r) => dates.day(r.createdAt) },
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

type ReviewRow = ReturnType<typeof useLoaderData<typeof loader>>["reviews"][number];

/** The merchant's public reply under a review: shown with Edit and Remove, or a Reply form (decision 060). */
function ReplyCell({
  review,
  page,
  failed,
}: {
  review: ReviewRow;
  page: number;
  failed: { error: string; body: string } | null;
}) {
  const { dates } = useShopFormat();
  const form = (label: string, defaultValue: string) => (
    <Form method="post" className="stack">
      <CsrfInput />
      <input type="hidden" name="reviewId" value={review.id} />
      <input type="hidden" name="page" value={page} />
      <label className="field">
        <span>Your reply to {review.authorName} (shown in your shop)</span>
        <textarea
          name="body"
          rows={3}
          required
          defaultValue={failed?.body ?? defaultValue}
          aria-invalid={failed ? true : undefined}
        />
      </label>
      {failed ? (
        <p className="field-error" role="alert">
          {failed.error}
        </p>
      ) : null}
      <SubmitButton name="intent" value="reply" className="button small" busyLabel="Publishing…">
        {label}
      </SubmitButton>
    </Form>
  );
  if (review.replyBody === null)
    return (
      <details className="confirm compact" open={failed ? true : undefined}>
        <summary>Reply…</summary>
        {form("Publish reply", "")}
      </details>
    );
  return (
    <div className="review-reply" data-testid="admin-review-reply">
      <p className="muted small">Your reply{review.replyCreatedAt ? `, ${dates.day(review.replyCreatedAt)}` : ""}:</p>
      <p className="prewrap">{review.replyBody}</p>
      <details className="confirm compact" open={failed ? true : undefined}>
        <summary>Edit reply…</summary>
        {form("Save reply", review.replyBody)}
      </details>
      <Form method="post">
        <CsrfInput />
        <input type="hidden" name="reviewId" value={review.id} />
        <input type="hidden" name="page" value={page} />
        <SubmitButton name="intent" value="unreply" className="button small subtle" busyLabel="Removing…">
          Remove reply
        </SubmitButton>
      </Form>
    </div>
  );
}
